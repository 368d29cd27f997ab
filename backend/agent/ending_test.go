package agent_test

import (
	"fmt"
	"sync/atomic"
	"testing"

	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
)

// TestLoop_EndInSightIsToldOnce: with two iterations left the model is told
// to wrap up, once, and limit.near records it in that iteration.
func TestLoop_EndInSightIsToldOnce(t *testing.T) {
	var n atomic.Int32
	srv := llmtest.NewFuncServer(t, func(llmtest.Request) llmtest.Step {
		return llmtest.Step{ToolCalls: []llm.ToolCall{call("", "list_files", map[string]any{"path": fmt.Sprintf("d%d", n.Add(1))})}}
	})
	h := newHarness(t, srv)
	h.setup.Limits.MaxIterations = 5
	h.setup.Limits.FailureLimit = 10
	h.setup.Limits.NoProgressLimit = 10
	res, events := h.run("wander")
	if res.Status != event.StatusMaxIterations {
		t.Fatalf("status %s", res.Status)
	}
	for i := range 5 {
		told := contains(h.request(i), llm.RoleUser, "2 iterations left")
		if want := i >= 3; told != want {
			t.Errorf("request %d carries the wrap-up note: %v, want %v", i+1, told, want)
		}
	}
	near := ofType(events, event.LimitNear)
	if len(near) != 1 || near[0].Iteration != 4 {
		t.Fatalf("limit.near events = %+v; want one in iteration 4", near)
	}
	d := decode[event.LimitNearData](t, near[0])
	if d.Limit != event.GuardMaxIterations || d.Left != 2 || d.Max != 5 {
		t.Errorf("limit.near = %+v", d)
	}
}
