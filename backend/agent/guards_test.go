package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/toolbox"
)

func TestLoop_MaxIterationsCountsEveryTurn(t *testing.T) {
	var n atomic.Int32
	srv := llmtest.NewFuncServer(t, func(llmtest.Request) llmtest.Step {
		i := n.Add(1)
		if i%2 == 0 { // every other turn is an invalid call: it counts too
			return llmtest.Step{ToolCalls: []llm.ToolCall{call("", "read_file", `{}`)}}
		}
		return llmtest.Step{ToolCalls: []llm.ToolCall{call("", "list_files", map[string]any{"path": fmt.Sprintf("d%d", i)})}}
	})
	h := newHarness(t, srv)
	h.setup.Limits.MaxIterations = 4
	h.setup.Limits.FailureLimit = 10
	h.setup.Limits.NoProgressLimit = 10
	res, events := h.run("wander")
	if res.Status != event.StatusMaxIterations || res.Totals.Iterations != 4 || len(srv.Requests()) != 4 {
		t.Fatalf("status %s after %d iterations and %d requests", res.Status, res.Totals.Iterations, len(srv.Requests()))
	}
	g := guards(t, events)
	if len(g) == 0 || g[len(g)-1].Guard != event.GuardMaxIterations || g[len(g)-1].Action != event.ActionStop {
		t.Errorf("guards = %+v", g)
	}
}

func TestLoop_RepeatedCallIsWarnedThenStopped(t *testing.T) {
	srv := llmtest.NewFuncServer(t, func(llmtest.Request) llmtest.Step {
		return llmtest.Step{ToolCalls: []llm.ToolCall{call("", "list_files", map[string]any{"path": "."})}}
	})
	h := newHarness(t, srv)
	res, events := h.run("loop forever")
	if res.Status != event.StatusGuard || len(srv.Requests()) != 4 {
		t.Fatalf("status %s after %d requests; want guard after 4", res.Status, len(srv.Requests()))
	}
	g := guards(t, events)
	if len(g) != 2 || g[0].Guard != event.GuardRepeatedCall || g[0].Action != event.ActionWarn || g[1].Action != event.ActionStop {
		t.Fatalf("guards = %+v", g)
	}
	if !contains(h.request(3), llm.RoleUser, "same arguments 3 times") {
		t.Error("the fourth request did not carry the intervention")
	}
	if n := len(ofType(events, event.ToolStarted)); n != 3 {
		t.Errorf("%d calls ran; the fourth identical call must not run", n)
	}
}

func TestLoop_ToolFailingThreeTimesStops(t *testing.T) {
	var n atomic.Int32
	srv := llmtest.NewFuncServer(t, func(llmtest.Request) llmtest.Step {
		return llmtest.Step{ToolCalls: []llm.ToolCall{call("", "read_file", map[string]any{"path": fmt.Sprintf("missing%d.txt", n.Add(1))})}}
	})
	h := newHarness(t, srv)
	res, events := h.run("read the missing files")
	if res.Status != event.StatusGuard {
		t.Fatalf("status %s", res.Status)
	}
	g := guards(t, events)
	last := g[len(g)-1]
	if last.Guard != event.GuardToolFailures || len(last.Details) != 3 || !strings.Contains(last.Details[2], "missing3.txt") {
		t.Fatalf("guard = %+v", last)
	}
	// The model was told the cause and a next step, not a bare error.
	first := toolResults(t, events)[0]
	if !strings.Contains(first.Result, "list_files") {
		t.Errorf("a missing file should point to list_files, got %q", first.Result)
	}
}

func TestLoop_NoProgressStops(t *testing.T) {
	var n atomic.Int32
	srv := llmtest.NewFuncServer(t, func(llmtest.Request) llmtest.Step {
		return llmtest.Step{ToolCalls: []llm.ToolCall{call("", fmt.Sprintf("no_such_tool_%d", n.Add(1)), `{}`)}}
	})
	h := newHarness(t, srv)
	res, events := h.run("call nonsense")
	if res.Status != event.StatusGuard || len(srv.Requests()) != 3 {
		t.Fatalf("status %s after %d requests", res.Status, len(srv.Requests()))
	}
	if g := guards(t, events); g[len(g)-1].Guard != event.GuardNoProgress {
		t.Errorf("guards = %+v", g)
	}
}

func TestLoop_TokenBudget(t *testing.T) {
	var n atomic.Int32
	srv := llmtest.NewFuncServer(t, func(llmtest.Request) llmtest.Step {
		return llmtest.Step{
			ToolCalls: []llm.ToolCall{call("", "list_files", map[string]any{"path": fmt.Sprintf("d%d", n.Add(1))})},
			Usage:     llm.Usage{PromptTokens: 80, CompletionTokens: 20, TotalTokens: 100},
		}
	})
	h := newHarness(t, srv)
	h.setup.Limits.TokenBudget = 250
	h.setup.Limits.FailureLimit = 10
	h.setup.Limits.NoProgressLimit = 10
	res, events := h.run("spend")
	if res.Status != event.StatusBudget || res.Totals.TotalTokens != 300 || len(srv.Requests()) != 3 {
		t.Fatalf("status %s, %d tokens, %d requests", res.Status, res.Totals.TotalTokens, len(srv.Requests()))
	}
	if g := guards(t, events); g[len(g)-1].Guard != event.GuardTokenBudget {
		t.Errorf("guards = %+v", g)
	}
}

func TestLoop_AnswerAfterFailedCallIsChecked(t *testing.T) {
	cases := []struct {
		name         string
		afterHint    []llmtest.Step
		wantVerified bool
	}{
		{"answers again without checking", []llmtest.Step{{Content: "Done, trust me."}}, false},
		{"fixes the call first", []llmtest.Step{
			{ToolCalls: []llm.ToolCall{call("c2", "read_file", map[string]any{"path": "yes.txt"})}},
			{Content: "Done: read yes.txt."},
		}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			steps := append([]llmtest.Step{
				{ToolCalls: []llm.ToolCall{call("c1", "read_file", map[string]any{"path": "nope.txt"})}},
				{Content: "Done."},
			}, c.afterHint...)
			srv := llmtest.NewServer(t, steps...)
			h := newHarness(t, srv)
			h.write("yes.txt", "ok")
			res, events := h.run("do it")
			if res.Status != event.StatusFinished || res.Verified != c.wantVerified {
				t.Fatalf("status %s verified %v, want finished verified %v", res.Status, res.Verified, c.wantVerified)
			}
			if fin := finished(t, events); fin.Verified != c.wantVerified {
				t.Errorf("run.finished verified = %v", fin.Verified)
			}
			if !contains(h.request(2), llm.RoleUser, "last tool call failed") {
				t.Error("the model was not told its last call failed")
			}
		})
	}
}

// gate is a read-only tool whose calls wait until `want` of them run at
// once: it proves calls run concurrently without timing anything.
func gate(want int) toolbox.Tool {
	var mu sync.Mutex
	arrived := 0
	all := make(chan struct{})
	return toolbox.Tool{
		Name: "gate", Description: "Waits for its siblings. Use in tests.", Risk: toolbox.RiskRead,
		Parameters: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","description":"which call"}},"required":["n"]}`),
		Run: func(ctx context.Context, _ toolbox.Env, args json.RawMessage) (string, error) {
			mu.Lock()
			arrived++
			if arrived == want {
				close(all)
			}
			mu.Unlock()
			select {
			case <-all:
				return "passed " + string(args), nil
			case <-ctx.Done():
				return "", ctx.Err()
			}
		},
	}
}

func TestLoop_ReadOnlyCallsRunConcurrentlyInOrder(t *testing.T) {
	srv := llmtest.NewServer(t,
		llmtest.Step{ToolCalls: []llm.ToolCall{call("g1", "gate", `{"n":1}`), call("g2", "gate", `{"n":2}`), call("g3", "gate", `{"n":3}`)}, Chunks: 3},
		llmtest.Step{Content: "all passed"},
	)
	h := newHarness(t, srv, gate(3))
	res, _ := h.run("open the gates")
	if res.Status != event.StatusFinished {
		t.Fatalf("status %s: %s", res.Status, res.Error)
	}
	sent := h.request(1)
	results := sent[len(sent)-3:]
	for i, m := range results {
		if id := fmt.Sprintf("g%d", i+1); m.ToolCallID != id || !strings.Contains(m.Content, fmt.Sprintf(`"n":%d`, i+1)) {
			t.Errorf("result %d = %+v, want call %s", i, m, id)
		}
	}
}

func TestLoop_TransientToolFailureRetriedOnce(t *testing.T) {
	var calls atomic.Int32
	flaky := toolbox.Tool{
		Name: "flaky", Description: "Fails once, then works. Use in tests.", Risk: toolbox.RiskRead,
		Parameters: json.RawMessage(`{"type":"object","properties":{}}`),
		Timeout:    50 * time.Millisecond,
		Run: func(ctx context.Context, _ toolbox.Env, _ json.RawMessage) (string, error) {
			if calls.Add(1) == 1 {
				<-ctx.Done() // the first attempt hangs until its timeout
				return "", ctx.Err()
			}
			return "worked", nil
		},
	}
	srv := llmtest.NewServer(t,
		llmtest.Step{ToolCalls: []llm.ToolCall{call("f1", "flaky", `{}`)}},
		llmtest.Step{Content: "ok"},
	)
	h := newHarness(t, srv, flaky)
	res, events := h.run("try the flaky tool")
	if res.Status != event.StatusFinished || !res.Verified {
		t.Fatalf("result %+v", res)
	}
	r := toolResults(t, events)
	if len(r) != 2 || r[0].OK || r[0].Attempt != 1 || !r[1].OK || r[1].Attempt != 2 {
		t.Fatalf("tool results = %+v", r)
	}
	sent := h.request(1)
	if got := sent[len(sent)-1].Content; got != "worked" {
		t.Errorf("the model saw %q; the failed attempt must not reach it", got)
	}
}
