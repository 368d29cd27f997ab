package llm_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
)

func TestChat_Retries(t *testing.T) {
	ok := llmtest.Step{Content: "hello world, all done", Chunks: 4}
	tests := []struct {
		name         string
		steps        []llmtest.Step
		plain        bool
		maxRetries   int // 0: the helper's 3
		backoff      func(int) time.Duration
		wantErr      error
		wantText     string // in the English error text
		wantAttempts int
		wantRetries  []string // each retry note contains this
		wantWait     time.Duration
	}{
		{name: "500 then success", steps: []llmtest.Step{{Status: 500}, ok}, wantAttempts: 2, wantRetries: []string{"HTTP 500"}},
		{name: "500 then success, not streamed", plain: true, steps: []llmtest.Step{{Status: 502}, ok}, wantAttempts: 2, wantRetries: []string{"HTTP 502"}},
		{
			name:  "429 honours Retry-After over the backoff",
			steps: []llmtest.Step{{Status: 429, RetryAfter: "0"}, ok}, backoff: func(int) time.Duration { return time.Hour },
			wantAttempts: 2, wantRetries: []string{"HTTP 429"}, wantWait: 0,
		},
		{name: "stream cut half-way then success", steps: []llmtest.Step{{Content: ok.Content, Chunks: 4, CutAfter: 2}, ok}, wantAttempts: 2, wantRetries: []string{"connection closed"}},
		{name: "503 three times then success", steps: []llmtest.Step{{Status: 503}, {Status: 503}, {Status: 503}, ok}, wantAttempts: 4, wantRetries: []string{"HTTP 503", "HTTP 503", "HTTP 503"}},
		{name: "401 is not retried", steps: []llmtest.Step{{Status: 401}}, wantErr: llm.ErrUnauthorized, wantText: "api_key", wantAttempts: 1},
		{name: "403 is not retried", steps: []llmtest.Step{{Status: 403}}, wantErr: llm.ErrUnauthorized, wantText: "OPENAI_API_KEY", wantAttempts: 1},
		{name: "404 names the model setting", steps: []llmtest.Step{{Status: 404}}, wantErr: llm.ErrModelNotFound, wantText: "--model", wantAttempts: 1},
		{name: "400 carries the server's message", steps: []llmtest.Step{{Status: 400, Content: "context length exceeded"}}, wantErr: llm.ErrBadRequest, wantText: "context length exceeded", wantAttempts: 1},
		// The server's sentence is set in parentheses: "(… provided):", not "(… provided.):".
		{name: "a server's sentence ends once", steps: []llmtest.Step{{Status: 401, Content: "Incorrect API key provided."}}, wantErr: llm.ErrUnauthorized, wantText: "(HTTP 401: Incorrect API key provided): check", wantAttempts: 1},
		{name: "5xx until retries run out", steps: []llmtest.Step{{Status: 500}, {Status: 500}, {Status: 500}, {Status: 500}}, wantErr: llm.ErrServer, wantText: "4 attempts", wantAttempts: 4, wantRetries: []string{"HTTP 500", "HTTP 500", "HTTP 500"}},
		{name: "negative MaxRetries retries nothing", maxRetries: -1, steps: []llmtest.Step{{Status: 429}}, wantErr: llm.ErrRateLimited, wantAttempts: 1},
		{name: "a Retry-After too long fails at once", steps: []llmtest.Step{{Status: 429, RetryAfter: "3600"}}, wantErr: llm.ErrRateLimited, wantText: "wait 1h0m0s", wantAttempts: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, tt.steps...)
			c := newClient(srv.URL, func(cfg *llm.Config) {
				cfg.Stream = !tt.plain
				if tt.maxRetries != 0 {
					cfg.MaxRetries = tt.maxRetries
				}
				if tt.backoff != nil {
					cfg.Backoff = tt.backoff
				}
			})
			rec := &recorder{}
			resp, err := chat(t, c, rec, rec.request())
			if !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if err != nil && !strings.Contains(english(err), tt.wantText) {
				t.Errorf("error %q does not contain %q", english(err), tt.wantText)
			}
			if err == nil && (resp.Content != ok.Content || strings.Join(rec.deltas, "") != ok.Content) {
				t.Errorf("content = %q, deltas since the last retry = %q; want %q for both", resp.Content, rec.deltas, ok.Content)
			}
			if resp.Attempts != tt.wantAttempts || len(srv.Requests()) != tt.wantAttempts {
				t.Errorf("attempts = %d, server saw %d; want %d", resp.Attempts, len(srv.Requests()), tt.wantAttempts)
			}
			if len(rec.retries) != len(tt.wantRetries) {
				t.Fatalf("retries = %+v, want %d", rec.retries, len(tt.wantRetries))
			}
			for i, r := range rec.retries {
				if r.Attempt != i+1 || !strings.Contains(r.Err, tt.wantRetries[i]) || r.Wait != tt.wantWait {
					t.Errorf("retry %d = %+v, want attempt %d, wait %v, error containing %q", i, r, i+1, tt.wantWait, tt.wantRetries[i])
				}
			}
		})
	}
}

func TestChat_Unreachable(t *testing.T) {
	base := "http://" + closedAddr(t) + "/v1"
	rec := &recorder{}
	resp, err := chat(t, newClient(base, func(cfg *llm.Config) { cfg.MaxRetries = 1 }), rec, rec.request())
	if !errors.Is(err, llm.ErrUnreachable) {
		t.Fatalf("err = %v, want ErrUnreachable", err)
	}
	if text := english(err); !strings.Contains(text, "base_url") || !strings.Contains(text, base) || !strings.Contains(text, "connection refused") {
		t.Errorf("error %q should name base_url, the URL and the cause", text)
	}
	if resp.Attempts != 2 || len(rec.retries) != 1 {
		t.Errorf("attempts = %d, retries = %d; want 2 and 1", resp.Attempts, len(rec.retries))
	}
}

// An attempt that gets no answer within Timeout is abandoned and retried.
func TestChat_AttemptTimeout(t *testing.T) {
	never := make(chan struct{})
	srv := llmtest.NewServer(t, llmtest.Step{Wait: never}, llmtest.Step{Content: "late but fine"})
	rec := &recorder{}
	resp, err := chat(t, newClient(srv.URL, func(cfg *llm.Config) { cfg.Timeout = 50 * time.Millisecond }), rec, rec.request())
	if err != nil {
		t.Fatalf("Chat: %v", err)
	}
	if resp.Content != "late but fine" || resp.Attempts != 2 {
		t.Errorf("content = %q, attempts = %d; want the second answer", resp.Content, resp.Attempts)
	}
	if len(rec.retries) != 1 || !strings.Contains(rec.retries[0].Err, "no answer within 50ms") {
		t.Errorf("retries = %+v, want one timeout", rec.retries)
	}
}

// A stream whose chunks carry no text, reasoning or tool call (an empty
// delta every few milliseconds) is as silent as one that sends nothing: past
// Timeout the attempt fails and is retried like a silent one, and the error
// says the server sent only empty chunks. Empty chunks for less than Timeout
// before the answer are no failure.
func TestChat_EmptyChunksAreSilence(t *testing.T) {
	const timeout = 100 * time.Millisecond
	// 2s of empty chunks, far past the timeout: a client that took them
	// for an answer coming would wait them all out.
	empty := llmtest.Step{EmptyChunks: 400, ChunkDelay: 5 * time.Millisecond}
	ok := llmtest.Step{EmptyChunks: 3, ChunkDelay: time.Millisecond, Content: "late but fine"}
	tests := []struct {
		name         string
		steps        []llmtest.Step
		wantErr      error
		wantAttempts int
	}{
		{name: "retried, then an answer", steps: []llmtest.Step{empty, ok}, wantAttempts: 2},
		{name: "until retries run out", steps: []llmtest.Step{empty, empty}, wantErr: llm.ErrUnreachable, wantAttempts: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, tt.steps...)
			c := newClient(srv.URL, func(cfg *llm.Config) { cfg.Timeout, cfg.MaxRetries = timeout, 1 })
			rec := &recorder{}
			resp, err := chat(t, c, rec, rec.request())
			if !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			const why = "no answer within 100ms; the server sent only empty chunks"
			if err != nil && !strings.Contains(english(err), why) {
				t.Errorf("error %q does not say %q", english(err), why)
			}
			if err == nil && resp.Content != ok.Content {
				t.Errorf("content = %q, want %q", resp.Content, ok.Content)
			}
			if resp.Attempts != tt.wantAttempts || len(rec.retries) != 1 || !strings.Contains(rec.retries[0].Err, why) {
				t.Errorf("attempts = %d, retries = %+v; want %d attempts, one retry saying %q", resp.Attempts, rec.retries, tt.wantAttempts, why)
			}
		})
	}
}

// Cancelling the context while the server holds the answer returns at once,
// with the context's error and no retry.
func TestChat_CancelDuringWait(t *testing.T) {
	arrived := make(chan struct{})
	never := make(chan struct{})
	srv := llmtest.NewFuncServer(t, func(llmtest.Request) llmtest.Step {
		close(arrived)
		return llmtest.Step{Wait: never}
	})
	ctx, cancel := context.WithCancel(t.Context())
	rec := &recorder{}
	done := make(chan error, 1)
	go func() {
		_, err := newClient(srv.URL).Chat(ctx, rec.request())
		done <- err
	}()
	<-arrived
	cancel()
	select {
	case err := <-done:
		assertNoKey(t, err)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Chat did not return after its context was cancelled")
	}
	if len(rec.retries) != 0 {
		t.Errorf("retries = %+v, want none after a cancel", rec.retries)
	}
}

// Cancelling during the backoff wait ends the call without another attempt.
func TestChat_CancelDuringBackoff(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Step{Status: 500})
	ctx, cancel := context.WithCancel(t.Context())
	req := llm.Request{
		Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}},
		OnRetry:  func(llm.Retry) { cancel() },
	}
	c := newClient(srv.URL, func(cfg *llm.Config) { cfg.Backoff = func(int) time.Duration { return time.Hour } })
	resp, err := c.Chat(ctx, req)
	assertNoKey(t, err)
	if !errors.Is(err, context.Canceled) || resp.Attempts != 1 {
		t.Errorf("err = %v, attempts = %d; want context.Canceled after 1 attempt", err, resp.Attempts)
	}
}

// An error object sent inside an open stream is a server failure mid-answer:
// retried, and the partial text is dropped through OnRetry.
func TestChat_ErrorInsideStream(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := calls.Add(1)
		w.Header().Set("Content-Type", "text/event-stream")
		if n == 1 {
			_, _ = io.WriteString(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"par\"}}]}\n\n")
			_, _ = io.WriteString(w, "data: {\"error\":{\"message\":\"model overloaded\",\"type\":\"server_error\"}}\n\n")
			return
		}
		_, _ = io.WriteString(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"whole\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	}))
	defer srv.Close()
	rec := &recorder{}
	resp, err := chat(t, newClient(srv.URL+"/v1"), rec, rec.request())
	if err != nil {
		t.Fatalf("Chat: %v", err)
	}
	if resp.Content != "whole" || resp.Attempts != 2 || strings.Join(rec.deltas, "") != "whole" {
		t.Errorf("content = %q, attempts = %d, deltas = %q; want the second answer only", resp.Content, resp.Attempts, rec.deltas)
	}
	if len(rec.retries) != 1 || !strings.Contains(rec.retries[0].Err, "model overloaded") {
		t.Errorf("retries = %+v, want one naming the server's message", rec.retries)
	}
}
