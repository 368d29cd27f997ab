package llm_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
)

func TestChat_Answers(t *testing.T) {
	readCall := llm.ToolCall{ID: "call_read_1", Name: "read_file", Arguments: `{"path":"notes/a.txt","max_bytes":4096}`}
	listCall := llm.ToolCall{ID: "call_list_2", Name: "list_files", Arguments: `{"dir":"notes","recursive":true}`}
	usage := llm.Usage{PromptTokens: 120, CompletionTokens: 30, TotalTokens: 150}
	tests := []struct {
		name       string
		stream     bool
		step       llmtest.Step
		wantDeltas int
		wantFinish string
	}{
		{"streamed text in chunks", true, llmtest.Step{Content: "The answer is 42, as computed.", Chunks: 5, Usage: usage}, 5, "stop"},
		{"streamed text in one chunk", true, llmtest.Step{Content: "你好，世界", Usage: usage}, 1, "stop"},
		{"two tool calls split across chunks", true, llmtest.Step{ToolCalls: []llm.ToolCall{readCall, listCall}, Chunks: 7, Usage: usage}, 0, "tool_calls"},
		{"text and a tool call", true, llmtest.Step{Content: "Let me look.", ToolCalls: []llm.ToolCall{readCall}, Chunks: 3, Usage: usage}, 3, "tool_calls"},
		{"plain text", false, llmtest.Step{Content: "The answer is 42.", Usage: usage}, 1, "stop"},
		{"plain tool calls", false, llmtest.Step{ToolCalls: []llm.ToolCall{readCall, listCall}, Usage: usage}, 0, "tool_calls"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, tt.step)
			c := newClient(srv.URL, func(cfg *llm.Config) { cfg.Stream = tt.stream })
			rec := &recorder{}
			resp, err := chat(t, c, rec, rec.request())
			if err != nil {
				t.Fatalf("Chat: %v", err)
			}
			if resp.Content != tt.step.Content {
				t.Errorf("content = %q, want %q", resp.Content, tt.step.Content)
			}
			if !reflect.DeepEqual(resp.ToolCalls, tt.step.ToolCalls) {
				t.Errorf("tool calls = %+v, want %+v", resp.ToolCalls, tt.step.ToolCalls)
			}
			if resp.Usage != usage {
				t.Errorf("usage = %+v, want %+v", resp.Usage, usage)
			}
			if resp.FinishReason != tt.wantFinish {
				t.Errorf("finish reason = %q, want %q", resp.FinishReason, tt.wantFinish)
			}
			if len(rec.deltas) != tt.wantDeltas || strings.Join(rec.deltas, "") != tt.step.Content {
				t.Errorf("deltas = %q, want %d pieces of %q", rec.deltas, tt.wantDeltas, tt.step.Content)
			}
			if resp.Attempts != 1 || resp.Latency <= 0 {
				t.Errorf("attempts = %d, latency = %v; want 1 and positive", resp.Attempts, resp.Latency)
			}
			got := srv.Requests()
			if len(got) != 1 {
				t.Fatalf("server saw %d requests, want 1", len(got))
			}
			if got[0].Stream != tt.stream || got[0].Header.Get("Authorization") != "Bearer "+testKey {
				t.Errorf("server saw stream=%v, auth %q; want stream=%v and the key sent", got[0].Stream, got[0].Header.Get("Authorization"), tt.stream)
			}
		})
	}
}

// A server that sends no usage, no [DONE] and tool calls without an index
// (as some local servers do) still gives a whole answer.
func TestChat_StreamFromMinimalServer(t *testing.T) {
	lines := []string{
		`{"choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"id":"call_a","type":"function","function":{"name":"read_file","arguments":""}}]}}]}`,
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"function":{"arguments":"{\"path\":"}}]}}]}`,
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"function":{"arguments":"\"a.txt\"}"}}]}}]}`,
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"id":"call_b","type":"function","function":{"name":"list_files","arguments":"{}"}}]}}]}`,
		`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, l := range lines {
			_, _ = io.WriteString(w, "data: "+l+"\n\n")
		}
	}))
	defer srv.Close()
	rec := &recorder{}
	resp, err := chat(t, newClient(srv.URL+"/v1"), rec, rec.request())
	if err != nil {
		t.Fatalf("Chat: %v", err)
	}
	want := []llm.ToolCall{
		{ID: "call_a", Name: "read_file", Arguments: `{"path":"a.txt"}`},
		{ID: "call_b", Name: "list_files", Arguments: `{}`},
	}
	if !reflect.DeepEqual(resp.ToolCalls, want) {
		t.Errorf("tool calls = %+v, want %+v", resp.ToolCalls, want)
	}
	if resp.Usage != (llm.Usage{}) || resp.FinishReason != "tool_calls" {
		t.Errorf("usage = %+v, finish = %q; want zero usage and tool_calls", resp.Usage, resp.FinishReason)
	}
}

// The conversation reaches the server as the OpenAI wire form: tool calls with
// their ids on the assistant message, the id on each tool result, a valid
// assistant message even without content, and every tool with a schema.
func TestChat_RequestWireForm(t *testing.T) {
	var body []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"choices":[{"index":0,"message":{"role":"assistant","content":"done"},"finish_reason":"stop"}]}`)
	}))
	defer srv.Close()
	call := llm.ToolCall{ID: "call_7", Name: "read_file", Arguments: `{"path":"a.txt"}`}
	temp := float32(0)
	req := llm.Request{
		Model: "override-model",
		Messages: []llm.Message{
			{Role: llm.RoleSystem, Content: "You are Hermes."},
			{Role: llm.RoleUser, Content: "Read a.txt"},
			{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{call}},
			{Role: llm.RoleTool, ToolCallID: "call_7", Content: "hello"},
		},
		Tools: []llm.ToolDef{
			{Name: "read_file", Description: "Read a file.", Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)},
			{Name: "list_files", Description: "List files."},
		},
		Temperature: &temp,
	}
	c := newClient(srv.URL+"/v1", func(cfg *llm.Config) { cfg.Stream = false })
	if _, err := chat(t, c, &recorder{}, req); err != nil {
		t.Fatalf("Chat: %v", err)
	}
	var wire struct {
		Model       string   `json:"model"`
		Temperature *float64 `json:"temperature"`
		Messages    []struct {
			Role       string  `json:"role"`
			Content    *string `json:"content"`
			ToolCallID string  `json:"tool_call_id"`
			ToolCalls  []struct {
				ID       string `json:"id"`
				Type     string `json:"type"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"messages"`
		Tools []struct {
			Type     string `json:"type"`
			Function struct {
				Name       string          `json:"name"`
				Parameters json.RawMessage `json:"parameters"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &wire); err != nil {
		t.Fatalf("request body is not JSON: %v\n%s", err, body)
	}
	if wire.Model != "override-model" {
		t.Errorf("model = %q, want the request's override", wire.Model)
	}
	if wire.Temperature == nil {
		t.Errorf("a zero temperature was dropped from the request")
	}
	asst := wire.Messages[2]
	if asst.Content != nil && *asst.Content != "" || len(asst.ToolCalls) != 1 {
		t.Fatalf("assistant message = %+v, want no content and one tool call", asst)
	}
	tc := asst.ToolCalls[0]
	if tc.ID != call.ID || tc.Type != "function" || tc.Function.Name != call.Name || tc.Function.Arguments != call.Arguments {
		t.Errorf("tool call on the wire = %+v, want %+v", tc, call)
	}
	if m := wire.Messages[3]; m.Role != "tool" || m.ToolCallID != "call_7" || m.Content == nil || *m.Content != "hello" {
		t.Errorf("tool message = %+v, want role tool, tool_call_id call_7, content hello", m)
	}
	if len(wire.Tools) != 2 || wire.Tools[0].Type != "function" || !json.Valid(wire.Tools[1].Function.Parameters) || string(wire.Tools[1].Function.Parameters) == "null" {
		t.Errorf("tools = %+v, want two function tools, each with an object schema", wire.Tools)
	}
}

func TestChat_InvalidBaseURL(t *testing.T) {
	for _, base := range []string{"ftp://127.0.0.1/v1", "127.0.0.1:8080/v1", "http://"} {
		t.Run(base, func(t *testing.T) {
			_, err := chat(t, newClient(base), &recorder{}, (&recorder{}).request())
			if !errors.Is(err, llm.ErrUnreachable) || !strings.Contains(english(err), "base_url") {
				t.Errorf("err = %v, want ErrUnreachable naming base_url", err)
			}
		})
	}
}

// A base URL that points at a web page answers 200 with HTML: that fails at
// once as a server error naming base_url, streamed or not.
func TestChat_NotTheAPI(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = io.WriteString(w, "<!doctype html>\n<html><body>Welcome</body></html>\n")
	}))
	defer srv.Close()
	for _, stream := range []bool{true, false} {
		t.Run(map[bool]string{true: "streamed", false: "plain"}[stream], func(t *testing.T) {
			rec := &recorder{}
			resp, err := chat(t, newClient(srv.URL, func(cfg *llm.Config) { cfg.Stream = stream }), rec, rec.request())
			if !errors.Is(err, llm.ErrServer) || !strings.Contains(english(err), "base_url") {
				t.Errorf("err = %v, want ErrServer naming base_url", err)
			}
			if resp.Attempts != 1 {
				t.Errorf("attempts = %d, want 1: retrying cannot help", resp.Attempts)
			}
		})
	}
}
