package llm_test

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
)

// Every request carries the output cap: max_tokens, or max_completion_tokens
// for the reasoning models that refuse max_tokens.
func TestChat_SendsOutputCap(t *testing.T) {
	tests := []struct {
		name       string
		model      string
		max        int
		stream     bool
		wantMax    int
		wantMaxOut int
	}{
		{name: "streamed", model: "test-model", max: 1234, stream: true, wantMax: 1234},
		{name: "plain", model: "test-model", max: 1234, wantMax: 1234},
		{name: "zero means the default", model: "test-model", stream: true, wantMax: llm.DefaultMaxOutputTokens},
		{name: "a reasoning model takes max_completion_tokens", model: "o3-mini", max: 4000, stream: true, wantMaxOut: 4000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, llmtest.Step{Content: "ok"})
			c := newClient(srv.URL, func(cfg *llm.Config) {
				cfg.Model, cfg.MaxOutputTokens, cfg.Stream = tt.model, tt.max, tt.stream
			})
			rec := &recorder{}
			if _, err := chat(t, c, rec, rec.request()); err != nil {
				t.Fatalf("Chat: %v", err)
			}
			got := srv.Requests()[0]
			if got.MaxTokens != tt.wantMax || got.MaxCompletionTokens != tt.wantMaxOut {
				t.Errorf("server saw max_tokens %d, max_completion_tokens %d; want %d and %d",
					got.MaxTokens, got.MaxCompletionTokens, tt.wantMax, tt.wantMaxOut)
			}
		})
	}
}

// A model that never stops is cut off at the reply cap: the client keeps
// no more than the cap, closes the stream (the server stops writing), does
// not retry, and says what to do.
func TestChat_EndlessReply(t *testing.T) {
	const repeat = 1 << 16 // 64 MiB of text, were it all read
	piece := strings.Repeat("0123456789abcdef", 64)
	call := llm.ToolCall{ID: "call_1", Name: "write_file", Arguments: piece}
	tests := []struct {
		name   string
		step   llmtest.Step
		stream bool
	}{
		{name: "text", step: llmtest.Step{Content: piece, Repeat: repeat}, stream: true},
		{name: "reasoning", step: llmtest.Step{Reasoning: piece, Repeat: repeat}, stream: true},
		{name: "reasoning under its alias", step: llmtest.Step{Reasoning: piece, ReasoningAsAlias: true, Repeat: repeat}, stream: true},
		{name: "tool-call arguments", step: llmtest.Step{ToolCalls: []llm.ToolCall{call}, Repeat: repeat}, stream: true},
		{name: "plain", step: llmtest.Step{Content: piece, Repeat: 1 << 12}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, tt.step)
			c := newClient(srv.URL, func(cfg *llm.Config) {
				cfg.Stream, cfg.MaxOutputTokens = tt.stream, 1000
			})
			rec := &recorder{}
			resp, err := chat(t, c, rec, rec.request())
			if !errors.Is(err, llm.ErrReplyTooLong) {
				t.Fatalf("err = %v, want ErrReplyTooLong", err)
			}
			if text := english(err); !strings.Contains(text, "max_output_tokens") || !strings.Contains(text, srv.URL) {
				t.Errorf("error %q should name max_output_tokens and the endpoint", text)
			}
			if resp.Content != "" || resp.ToolCalls != nil || resp.Attempts != 1 || len(srv.Requests()) != 1 {
				t.Errorf("response = %+v after %d requests; want nothing kept, one attempt", resp, len(srv.Requests()))
			}
			kept := 0
			for _, d := range rec.deltas {
				kept += len(d)
			}
			if kept > llm.ReplyCap(1000) {
				t.Errorf("the client passed on %d bytes of text, more than the cap of %d", kept, llm.ReplyCap(1000))
			}
			srv.Close() // waits for the handler: it must have stopped writing
			if tt.stream && srv.Chunks() >= repeat {
				t.Errorf("the server wrote all %d chunks: the client never closed the stream", srv.Chunks())
			}
		})
	}
}

// max_retries = 0 means one attempt and no retry.
func TestChat_ZeroRetries(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Step{Status: 500}, llmtest.Step{Status: 500})
	rec := &recorder{}
	resp, err := chat(t, newClient(srv.URL, func(cfg *llm.Config) { cfg.MaxRetries = 0 }), rec, rec.request())
	if !errors.Is(err, llm.ErrServer) {
		t.Fatalf("err = %v, want ErrServer", err)
	}
	if n := len(srv.Requests()); n != 1 || resp.Attempts != 1 || len(rec.retries) != 0 {
		t.Errorf("server saw %d requests, attempts = %d, retries = %d; want 1, 1, 0", n, resp.Attempts, len(rec.retries))
	}
}

// A stream line that never ends would be read whole into memory; the body
// limit stops it.
func TestChat_EndlessStreamLine(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, `data: {"choices":[{"index":0,"delta":{"content":"`)
		block := []byte(strings.Repeat("a", 64<<10))
		for range 1024 { // 64 MiB at most
			if _, err := w.Write(block); err != nil || r.Context().Err() != nil {
				return
			}
		}
	}))
	defer srv.Close()
	rec := &recorder{}
	resp, err := chat(t, newClient(srv.URL+"/v1"), rec, rec.request())
	if !errors.Is(err, llm.ErrReplyTooLong) || resp.Attempts != 1 {
		t.Fatalf("err = %v after %d attempts, want ErrReplyTooLong after 1", err, resp.Attempts)
	}
}
