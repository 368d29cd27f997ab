package agent_test

import (
	"strings"
	"testing"
	"time"

	"hermes/backend/agent"
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
)

// endless is a reply that would stream 64 MiB of text, were it all read.
var endless = llmtest.Step{Content: strings.Repeat("The sea is wide and deep. ", 40), Repeat: 1 << 16}

// logSize is how many bytes of event data a run wrote.
func logSize(events []event.Event) int {
	n := 0
	for _, e := range events {
		n += len(e.Data)
	}
	return n
}

// A model that never stops is cut off at the reply cap: the run fails and
// says what to do, nothing of the reply becomes an answer, and the log
// stays small.
func TestLoop_EndlessReplyFailsTheRun(t *testing.T) {
	for _, strategy := range []agent.Strategy{agent.StrategyReact, agent.StrategyPlan} {
		t.Run(string(strategy), func(t *testing.T) {
			srv := llmtest.NewFuncServer(t, func(llmtest.Request) llmtest.Step { return endless })
			h := newHarness(t, srv)
			h.setup.Strategy = strategy

			res, events := h.run("Tell me about the sea.")

			if res.Status != event.StatusFailed || res.Answer != "" || res.Verified || !strings.Contains(res.Error, "max_output_tokens") {
				t.Fatalf("result = %+v, want a failure naming max_output_tokens", res)
			}
			if n := logSize(events); n > 1<<20 {
				t.Errorf("the log holds %d bytes of events, want under 1 MiB", n)
			}
		})
	}
}

// A model that streams empty chunks without end is as silent as one that
// sends nothing: each attempt ends at the model's timeout, and once the
// retries are spent the run fails saying so, instead of waiting forever at
// its first iteration.
func TestLoop_EmptyChunksFailTheRun(t *testing.T) {
	// 2s of empty chunks each, far past the timeout.
	srv := llmtest.NewFuncServer(t, func(llmtest.Request) llmtest.Step {
		return llmtest.Step{EmptyChunks: 400, ChunkDelay: 5 * time.Millisecond}
	})
	h := newHarness(t, srv)
	h.setup.Model = llm.New(llm.Config{
		BaseURL: srv.URL, APIKey: testKey, Model: "test-model", Stream: true,
		MaxRetries: 1, Timeout: 100 * time.Millisecond, Backoff: func(int) time.Duration { return 0 },
	})

	res, events := h.run("Tell me about the sea.")

	if res.Status != event.StatusFailed || !strings.Contains(res.Error, "only empty chunks") {
		t.Fatalf("result = %+v, want a failure saying the server sent only empty chunks", res)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("the model got %d requests, want 2 (one retry)", n)
	}
	if n := len(ofType(events, event.IterationStarted)); n != 1 {
		t.Errorf("%d iterations started, want 1", n)
	}
}

// A completion check that cannot be asked (here: the model runs away on
// it) does not make the answer verified.
func TestPlan_UncheckedAnswerIsNotVerified(t *testing.T) {
	srv := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		switch stageOf(req.Messages) {
		case stagePlan:
			return llmtest.Step{Content: "no plan today"}
		case stageConfidence:
			return endless
		}
		return llmtest.Step{Content: "The sea covers most of the planet."}
	})
	h := newHarness(t, srv)
	h.setup.Strategy = agent.StrategyPlan

	res, events := h.run("Tell me about the sea.")

	if res.Status != event.StatusFinished || res.Verified || res.Answer != "The sea covers most of the planet." {
		t.Fatalf("result = %+v, want the answer, unverified", res)
	}
	done := decode[event.CompletionCheckedData](t, ofType(events, event.CompletionChecked)[0])
	if done.Passed || !strings.Contains(done.Reason, "max_output_tokens") {
		t.Errorf("completion.checked = %+v, want not passed, with the reason", done)
	}
}

// A task larger than the context window is never sent: the run fails at
// once and says what to do.
func TestLoop_OverWindowTaskIsNotSent(t *testing.T) {
	task := "Summarise this: " + strings.Repeat("lorem ipsum dolor sit amet ", 40000) // about 1 MB
	for _, strategy := range []agent.Strategy{agent.StrategyReact, agent.StrategyPlan} {
		t.Run(string(strategy), func(t *testing.T) {
			srv := llmtest.NewServer(t)
			h := newHarness(t, srv)
			h.setup.Strategy, h.setup.Route = strategy, true
			h.setup.Limits.ContextWindow = 8000

			res, events := h.run(task)

			if n := len(srv.Requests()); n != 0 {
				t.Fatalf("the model got %d requests, want none", n)
			}
			if res.Status != event.StatusFailed || !strings.Contains(res.Error, "context_window") || !strings.Contains(res.Error, "8000") {
				t.Fatalf("result = %+v, want a failure naming context_window and the window", res)
			}
			if fin := finished(t, events); fin.Error != res.Error {
				t.Errorf("run.finished error %q, want %q", fin.Error, res.Error)
			}
		})
	}
}

// Tool-call arguments that leave the next request over the window (there
// is nothing older to fold) stop the run before that request is sent.
func TestLoop_OverWindowHistoryIsNotSent(t *testing.T) {
	huge := `{"content":"` + strings.Repeat("x", 1<<20) + `"}`
	srv := llmtest.NewServer(t, llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "c1", Name: "no_such_tool", Arguments: huge}}})
	h := newHarness(t, srv)
	h.setup.Model = llm.New(llm.Config{
		BaseURL: srv.URL, APIKey: testKey, Model: "test-model", Stream: true,
		MaxOutputTokens: 400_000, Backoff: func(int) time.Duration { return 0 },
	})
	h.setup.Limits.ContextWindow = 16000

	res, _ := h.run("Write a big file.")

	if n := len(srv.Requests()); n != 1 {
		t.Fatalf("the model got %d requests, want only the first", n)
	}
	if res.Status != event.StatusFailed || !strings.Contains(res.Error, "context_window") {
		t.Fatalf("result = %+v, want a failure naming context_window", res)
	}
}
