package llm_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"

	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
)

// reasoningRecorder collects the thinking a Chat call streamed.
type reasoningRecorder struct {
	mu     sync.Mutex
	pieces []string
}

func (r *reasoningRecorder) add(s string) {
	r.mu.Lock()
	r.pieces = append(r.pieces, s)
	r.mu.Unlock()
}

// The thinking comes back beside the answer, streamed piece by piece before
// it, whichever key the server sends it under, and its tokens are counted.
func TestChat_Reasoning(t *testing.T) {
	call := llm.ToolCall{ID: "call_r1", Name: "read_file", Arguments: `{"path":"notes/a.md"}`}
	usage := llm.Usage{PromptTokens: 90, CompletionTokens: 60, TotalTokens: 150, ReasoningTokens: 40}
	const thought = "The user wants the notes; 先读 a.md。"
	tests := []struct {
		name       string
		stream     bool
		step       llmtest.Step
		wantPieces int
	}{
		{"streamed before the text", true, llmtest.Step{Reasoning: thought, Content: "Reading it.", Chunks: 4, Usage: usage}, 4},
		{"streamed before tool calls", true, llmtest.Step{Reasoning: thought, ToolCalls: []llm.ToolCall{call}, Chunks: 3, Usage: usage}, 3},
		{"streamed as reasoning", true, llmtest.Step{Reasoning: thought, ReasoningAsAlias: true, Content: "Reading it.", Chunks: 2, Usage: usage}, 2},
		{"plain", false, llmtest.Step{Reasoning: thought, ToolCalls: []llm.ToolCall{call}, Usage: usage}, 1},
		{"plain as reasoning", false, llmtest.Step{Reasoning: thought, ReasoningAsAlias: true, Content: "Reading it.", Usage: usage}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, tt.step)
			c := newClient(srv.URL, func(cfg *llm.Config) { cfg.Stream = tt.stream })
			rec, thinking := &recorder{}, &reasoningRecorder{}
			req := rec.request()
			req.OnReasoning = thinking.add
			resp, err := chat(t, c, rec, req)
			if err != nil {
				t.Fatalf("Chat: %v", err)
			}
			if resp.Reasoning != thought || resp.Content != tt.step.Content || !reflect.DeepEqual(resp.ToolCalls, tt.step.ToolCalls) {
				t.Errorf("reasoning %q, content %q, calls %+v; want %q, %q, %+v", resp.Reasoning, resp.Content, resp.ToolCalls, thought, tt.step.Content, tt.step.ToolCalls)
			}
			if len(thinking.pieces) != tt.wantPieces || strings.Join(thinking.pieces, "") != thought {
				t.Errorf("reasoning deltas = %q, want %d pieces of %q", thinking.pieces, tt.wantPieces, thought)
			}
			if strings.Contains(strings.Join(rec.deltas, ""), "a.md。") {
				t.Errorf("the thinking reached the text deltas: %q", rec.deltas)
			}
			if resp.Usage != usage {
				t.Errorf("usage = %+v, want %+v", resp.Usage, usage)
			}
		})
	}
}

// Streams in the shapes real providers send (testdata, written from each
// one's documented wire format) give the thinking, the answer or the calls,
// and the usage wherever the provider puts it.
func TestChat_RecordedReasoningStreams(t *testing.T) {
	tests := []struct {
		file      string
		reasoning string
		content   string
		calls     []llm.ToolCall
		usage     llm.Usage
	}{
		{
			"deepseek_tool_call.sse", "The user wants a summary of the notes. I should read notes/a.md first.", "",
			[]llm.ToolCall{{ID: "call_00_Xb5x1qVRaO2gHnY8sLw3", Name: "read_file", Arguments: `{"path": "notes/a.md"}`}},
			llm.Usage{PromptTokens: 412, CompletionTokens: 58, TotalTokens: 470, ReasoningTokens: 41, CachedTokens: 384},
		},
		{
			"glm_tool_call.sse", "用户想知道notes 目录里有哪些文件，先列出来。", "",
			[]llm.ToolCall{{ID: "call_-8147658390462523616", Name: "list_files", Arguments: `{"dir":"notes"}`}},
			llm.Usage{PromptTokens: 380, CompletionTokens: 35, TotalTokens: 415},
		},
		{
			"kimi_tool_call.sse", "用户问有几条笔记，我需要列出 notes 目录。", "",
			[]llm.ToolCall{{ID: "functions.list_files:0", Name: "list_files", Arguments: `{"dir": "notes"}`}},
			llm.Usage{PromptTokens: 301, CompletionTokens: 47, TotalTokens: 348},
		},
		{
			"qwen_answer.sse", "嗯，三个文件都读过了，可以回答了。", "共有三条笔记。", nil,
			llm.Usage{PromptTokens: 520, CompletionTokens: 64, TotalTokens: 584, ReasoningTokens: 52},
		},
		{
			"ollama_answer.sse", "Three files, all read.", "There are three notes.", nil,
			llm.Usage{PromptTokens: 210, CompletionTokens: 20, TotalTokens: 230},
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			body, err := os.ReadFile("testdata/" + tt.file)
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				w.Write(body)
			}))
			defer srv.Close()
			rec, thinking := &recorder{}, &reasoningRecorder{}
			req := rec.request()
			req.OnReasoning = thinking.add
			resp, err := chat(t, newClient(srv.URL+"/v1"), rec, req)
			if err != nil {
				t.Fatalf("Chat: %v", err)
			}
			if resp.Reasoning != tt.reasoning || strings.Join(thinking.pieces, "") != tt.reasoning {
				t.Errorf("reasoning = %q (streamed %q), want %q", resp.Reasoning, thinking.pieces, tt.reasoning)
			}
			if resp.Content != tt.content || !reflect.DeepEqual(resp.ToolCalls, tt.calls) {
				t.Errorf("content %q, calls %+v; want %q, %+v", resp.Content, resp.ToolCalls, tt.content, tt.calls)
			}
			if resp.Usage != tt.usage {
				t.Errorf("usage = %+v, want %+v", resp.Usage, tt.usage)
			}
		})
	}
}

// Thinking counts toward the reply cap like text: a model that thinks
// without end is cut off.
func TestChat_EndlessReasoning(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Step{Reasoning: strings.Repeat("hmm ", 64), Content: "done", Repeat: 20000})
	c := newClient(srv.URL, func(cfg *llm.Config) { cfg.MaxOutputTokens = 16 })
	rec := &recorder{}
	_, err := chat(t, c, rec, rec.request())
	if err == nil || !strings.Contains(english(err), "max_output_tokens") {
		t.Fatalf("err = %v, want the reply cut off", err)
	}
}

// The thinking goes back to the provider only where its API requires it
// (with tool calls, to DeepSeek, GLM and Kimi, by endpoint or by model
// family) and never elsewhere, unless [model] send_reasoning says so.
func TestChat_SendReasoning(t *testing.T) {
	tests := []struct {
		name, setting, base, model string
		wantCall, wantAnswer       bool // reasoning sent on the tool-call message, on the answer
	}{
		{"deepseek endpoint", "", "https://api.deepseek.com/v1", "deepseek-reasoner", true, false},
		{"kimi endpoint", "auto", "https://api.moonshot.ai/v1", "kimi-k2-thinking", true, false},
		{"glm endpoint", "auto", "https://open.bigmodel.cn/api/paas/v4", "glm-4.6", true, false},
		{"z.ai endpoint", "auto", "https://api.z.ai/api/paas/v4", "glm-4.7", true, false},
		{"qwen endpoint", "auto", "https://dashscope.aliyuncs.com/compatible-mode/v1", "qwen-plus", false, false},
		{"openai endpoint", "auto", "https://api.openai.com/v1", "gpt-4o", false, false},
		{"deepseek weights elsewhere", "auto", "http://127.0.0.1:8000/v1", "deepseek-ai/DeepSeek-V3.2", true, false},
		{"other model elsewhere", "auto", "http://127.0.0.1:8000/v1", "qwen3:8b", false, false},
		{"always", "always", "https://api.openai.com/v1", "gpt-4o", true, true},
		{"never", "never", "https://api.deepseek.com/v1", "deepseek-reasoner", false, false},
	}
	call := llm.ToolCall{ID: "call_1", Name: "read_file", Arguments: `{"path":"a.md"}`}
	msgs := []llm.Message{
		{Role: llm.RoleUser, Content: "Summarise a.md."},
		{Role: llm.RoleAssistant, Reasoning: "Read it first.", ToolCalls: []llm.ToolCall{call}},
		{Role: llm.RoleTool, ToolCallID: "call_1", Name: "read_file", Content: "alpha"},
		{Role: llm.RoleAssistant, Reasoning: "Too short to be the summary.", Content: "alpha"},
		{Role: llm.RoleUser, Content: "Check it again."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, llmtest.Step{Content: "ok"})
			c := newClient(tt.base, func(cfg *llm.Config) {
				cfg.Model, cfg.SendReasoning = tt.model, tt.setting
				cfg.HTTPClient = toServer(srv.URL)
			})
			rec := &recorder{}
			if _, err := chat(t, c, rec, rec.request(msgs...)); err != nil {
				t.Fatalf("Chat: %v", err)
			}
			got := srv.Requests()[0].Messages
			if sent := got[1].Reasoning != ""; sent != tt.wantCall {
				t.Errorf("reasoning on the tool-call message sent = %v, want %v", sent, tt.wantCall)
			}
			if sent := got[3].Reasoning != ""; sent != tt.wantAnswer {
				t.Errorf("reasoning on the answer sent = %v, want %v", sent, tt.wantAnswer)
			}
		})
	}
}

// toServer is an HTTP client that carries every request, whatever its
// host, to the loopback server at base: the provider's endpoint as the
// client sees it, with no network.
func toServer(base string) *http.Client {
	addr := strings.TrimSuffix(strings.TrimPrefix(base, "http://"), "/v1")
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}
	tr.DialTLSContext = nil
	return &http.Client{Transport: plainHTTP{tr}}
}

// plainHTTP sends https requests as http, to the path the loopback server
// serves, so a provider's base URL reaches it.
type plainHTTP struct{ next http.RoundTripper }

func (p plainHTTP) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.URL.Scheme = "http"
	if i := strings.Index(r.URL.Path, "/chat/completions"); i >= 0 {
		r.URL.Path = "/v1" + r.URL.Path[i:]
	}
	return p.next.RoundTrip(r)
}

// A provider that refuses the request over the reasoning (DeepSeek's 400
// when a tool-call message comes back without it) names the setting to
// change.
func TestChat_ReasoningRefused(t *testing.T) {
	srv := statusServer(t, http.StatusBadRequest, "The reasoning_content in the thinking mode must be passed back to the API.")
	rec := &recorder{}
	_, err := chat(t, newClient(srv.URL+"/v1", func(cfg *llm.Config) { cfg.SendReasoning = "never" }), rec, rec.request())
	if !errors.Is(err, llm.ErrBadRequest) || !strings.Contains(english(err), `send_reasoning in hermes.toml (now "never")`) {
		t.Fatalf("err = %v, want a bad request naming [model] send_reasoning", err)
	}
}
