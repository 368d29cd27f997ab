package agent_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/store"
	"hermes/backend/toolbox"
)

// closingStore is the real store, closed by the first save that records the
// run's end (its status no longer "running"), as a full disk or a store
// taken away fails the final checkpoint.
type closingStore struct{ *store.Store }

func (s closingStore) QueueCheckpoint(c store.Checkpoint) *store.Saving {
	if !strings.Contains(string(c.State), `"status":"running"`) {
		s.Store.Close()
	}
	return s.Store.QueueCheckpoint(c)
}

// failAt makes the harness's real store fail from a point of the run on:
// at the final checkpoint, or (from a tool) at an iteration's.
func failAt(t *testing.T, h *harness) *store.Store {
	t.Helper()
	store := h.setup.Store.(*store.Store)
	h.setup.Store = closingStore{store}
	return store
}

// A checkpoint that cannot be saved is told before run.finished, never after
// it: run.finished is always the last event of a leg.
func TestFinish_CheckpointFailureIsToldBeforeRunFinished(t *testing.T) {
	tests := []struct {
		name   string
		steps  []llmtest.Step
		status string
	}{
		{"the final checkpoint", []llmtest.Step{{Content: "All done."}}, event.StatusFinished},
		{"an iteration's checkpoint", []llmtest.Step{
			{ToolCalls: []llm.ToolCall{call("call_0", "close_store", map[string]any{})}},
			{Content: "never asked"},
		}, event.StatusFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var store *store.Store
			h := newHarness(t, llmtest.NewServer(t, tt.steps...), closeStoreTool(func() { store.Close() }))
			store = failAt(t, h)

			res, events := h.run("Say you are done.")

			if res.Status != tt.status {
				t.Errorf("status = %s (%s), want %s", res.Status, res.Error, tt.status)
			}
			last := events[len(events)-1]
			if last.Type != event.RunFinished {
				t.Fatalf("the log ends with %s, not run.finished: %s", last.Type, last.Data)
			}
			var told bool
			for _, g := range guards(t, events) {
				told = told || g.Guard == event.GuardCheckpointFail && strings.Contains(g.Message, "checkpoint")
			}
			if !told {
				t.Errorf("no checkpoint_failed guard before run.finished; guards %+v", guards(t, events))
			}
		})
	}
}

// closeStoreTool closes the store when called, so the iteration's checkpoint
// that follows fails.
func closeStoreTool(closeStore func()) toolbox.Tool {
	return toolbox.Tool{
		Name: "close_store", Description: "Closes the store. Use in tests.", Risk: toolbox.RiskRead,
		Parameters: json.RawMessage(`{"type":"object","properties":{}}`),
		Run: func(context.Context, toolbox.Env, json.RawMessage) (string, error) {
			closeStore()
			return "closed", nil
		},
	}
}
