// Package llmtest is a scripted OpenAI-compatible HTTP server on loopback,
// for tests and benchmarks that drive the real model client. Like
// net/http/httptest it is not a test file, but production code never imports
// it.
package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"hermes/backend/llm"
)

// modelID is the one model the server lists.
const modelID = "llmtest-model"

// Step is one scripted answer.
type Step struct {
	Content   string         // assistant text; with Status, the error message
	ToolCalls []llm.ToolCall // tool calls to return, ids included
	Usage     llm.Usage      // reported usage; zero means computed roughly from lengths
	// Chunks splits the text and each tool call's arguments into this many
	// stream chunks (0 or 1: one chunk). A tool call's id and name come first,
	// its argument fragments after, as real servers send them.
	Chunks     int
	Status     int             // non-zero: answer with this HTTP status and an OpenAI-style error body
	RetryAfter string          // Retry-After header sent with Status, e.g. "0"
	CutAfter   int             // > 0: send this many stream chunks, then drop the connection
	Wait       <-chan struct{} // non-nil: answer only once it is closed (or the request is cancelled)
	// Reasoning is streamed as reasoning_content before the text and the
	// tool calls, as thinking models (DeepSeek, GLM, Kimi, Qwen) send it;
	// a plain answer holds it beside the content.
	Reasoning string
	// ReasoningAsAlias sends Reasoning under the key "reasoning" instead,
	// as OpenRouter, Ollama and newer vLLM name it.
	ReasoningAsAlias bool
	// Repeat > 1 sends every piece of text (reasoning, content, argument
	// fragments) this many times over, as a model that will not stop does;
	// a plain answer holds the text repeated. A stream stops early once the
	// client goes away, so the test's cost stays bounded either way.
	Repeat int
	// Delay holds the answer back this long before its first byte, and
	// ChunkDelay waits this long before each stream chunk after the first:
	// a model whose time to first token and streaming time are known.
	Delay      time.Duration
	ChunkDelay time.Duration
	// EmptyChunks sends this many chunks whose delta is empty
	// ("delta":{}), ChunkDelay apart, before the answer: a server that
	// keeps the stream open without saying anything.
	EmptyChunks int
}

// Request is a request the server received, decoded.
type Request struct {
	Model    string
	Messages []llm.Message
	Tools    []llm.ToolDef
	Stream   bool
	Header   http.Header
	// MaxTokens and MaxCompletionTokens are the output caps the client
	// sent (0: none).
	MaxTokens           int
	MaxCompletionTokens int
	// Temperature and TopP are what the client sent; nil when the request
	// had none.
	Temperature *float64
	TopP        *float64
}

// Server is a scripted model endpoint. URL is its base URL, ending in /v1.
type Server struct {
	URL string

	t        testing.TB
	srv      *httptest.Server
	next     func(Request) (Step, bool)
	done     chan struct{} // closed by Close, to release handlers blocked in a Wait
	closed   sync.Once
	mu       sync.Mutex
	requests []Request
	chunks   atomic.Int64 // stream chunks written, over all requests
}

// NewServer answers requests with steps in order. A request past the end of
// the script fails the test and gets HTTP 500.
func NewServer(t testing.TB, steps ...Step) *Server {
	var mu sync.Mutex
	next := 0
	return newServer(t, func(Request) (Step, bool) {
		mu.Lock()
		defer mu.Unlock()
		if next >= len(steps) {
			return Step{}, false
		}
		next++
		return steps[next-1], true
	})
}

// NewFuncServer computes each answer from the request: for long or stateless
// scripts, benchmarks, and runs resumed by another process.
func NewFuncServer(t testing.TB, f func(req Request) Step) *Server {
	return newServer(t, func(req Request) (Step, bool) { return f(req), true })
}

func newServer(t testing.TB, next func(Request) (Step, bool)) *Server {
	s := &Server{t: t, next: next, done: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", s.chat)
	mux.HandleFunc("GET /v1/models", s.models)
	s.srv = httptest.NewServer(mux)
	s.URL = s.srv.URL + "/v1"
	t.Cleanup(s.Close)
	return s
}

// Requests returns every chat request received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Chunks returns how many stream chunks the server has written so far, over
// every request: a test of a client that stops reading sees it stop growing.
func (s *Server) Chunks() int64 { return s.chunks.Load() }

// Close shuts the server down, releasing any handler still waiting. It is
// registered with t.Cleanup, and safe to call again.
func (s *Server) Close() {
	s.closed.Do(func() {
		close(s.done)
		s.srv.Close()
	})
}

func (s *Server) chat(w http.ResponseWriter, r *http.Request) {
	var wire wireRequest
	if err := json.NewDecoder(r.Body).Decode(&wire); err != nil {
		writeError(w, http.StatusBadRequest, "llmtest: cannot decode the request: "+err.Error())
		return
	}
	req := wire.toRequest()
	req.Header = r.Header.Clone()
	s.mu.Lock()
	s.requests = append(s.requests, req)
	n := len(s.requests)
	s.mu.Unlock()

	if r.Header.Get("Authorization") == "" {
		writeError(w, http.StatusUnauthorized, "llmtest: no Authorization header")
		return
	}
	step, ok := s.next(req)
	if !ok {
		s.t.Errorf("llmtest: request %d is past the end of the script", n)
		writeError(w, http.StatusInternalServerError, "llmtest: request past the end of the script")
		return
	}
	if step.Wait != nil {
		select {
		case <-step.Wait:
		case <-r.Context().Done():
			return
		case <-s.done:
			return
		}
	}
	if step.Delay > 0 {
		select {
		case <-time.After(step.Delay):
		case <-r.Context().Done():
			return
		case <-s.done:
			return
		}
	}
	if step.Status != 0 {
		if step.RetryAfter != "" {
			w.Header().Set("Retry-After", step.RetryAfter)
		}
		msg := step.Content
		if msg == "" {
			msg = fmt.Sprintf("llmtest: scripted %d %s", step.Status, http.StatusText(step.Status))
		}
		writeError(w, step.Status, msg)
		return
	}
	a := answer{step: step, id: "chatcmpl-llmtest-" + strconv.Itoa(n), model: req.Model, created: time.Now().Unix()}
	if a.step.Usage == (llm.Usage{}) {
		a.step.Usage = roughUsage(req, step)
	}
	if wire.Stream {
		a.stream(r.Context(), w, wire.StreamOptions != nil && wire.StreamOptions.IncludeUsage, &s.chunks)
		return
	}
	a.plain(w)
}

func (s *Server) models(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Authorization") == "" {
		writeError(w, http.StatusUnauthorized, "llmtest: no Authorization header")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = fmt.Fprintf(w, `{"object":"list","data":[{"id":%q,"object":"model","created":0,"owned_by":"llmtest"}]}`, modelID)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	var body errorBody
	body.Error.Message = msg
	switch {
	case status == http.StatusUnauthorized:
		body.Error.Type, body.Error.Code = "invalid_request_error", "invalid_api_key"
	case status == http.StatusNotFound:
		body.Error.Type, body.Error.Code = "invalid_request_error", "model_not_found"
	case status == http.StatusTooManyRequests:
		body.Error.Type, body.Error.Code = "requests", "rate_limit_exceeded"
	case status >= 500:
		body.Error.Type, body.Error.Code = "server_error", "server_error"
	default:
		body.Error.Type, body.Error.Code = "invalid_request_error", "invalid_request"
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body) // a client gone has no one to be told
}

// roughUsage counts about four characters a token, as real tokenisers do on
// English text, so budgets move in tests that script no usage. The tool
// schemas are part of the prompt, as providers count them.
func roughUsage(req Request, step Step) llm.Usage {
	prompt := 0
	for _, t := range req.Tools {
		prompt += len(t.Name) + len(t.Description) + len(t.Parameters)
	}
	for _, m := range req.Messages {
		prompt += len(m.Content) + len(m.Reasoning)
		for _, tc := range m.ToolCalls {
			prompt += len(tc.Name) + len(tc.Arguments)
		}
	}
	completion := len(step.Content) + len(step.Reasoning)
	for _, tc := range step.ToolCalls {
		completion += len(tc.Name) + len(tc.Arguments)
	}
	u := llm.Usage{PromptTokens: prompt/4 + 1, CompletionTokens: completion/4 + 1}
	if step.Reasoning != "" {
		u.ReasoningTokens = len(step.Reasoning)/4 + 1
	}
	u.TotalTokens = u.PromptTokens + u.CompletionTokens
	return u
}
