package runlog

import (
	"encoding/json"
	"testing"

	"hermes/backend/event"
)

// TestFolder_CountsDecidedCallsWhileRunning: a call the person denies never
// starts but counts in the run's totals and on the run page, so the runs list
// counts it too before run.finished brings the totals.
func TestFolder_CountsDecidedCallsWhileRunning(t *testing.T) {
	data := func(v any) json.RawMessage {
		raw, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return raw
	}
	s := Summarize([]event.Event{
		{Seq: 1, RunID: "r", Type: event.RunStarted, Data: data(event.RunStartedData{Task: "t"})},
		{Seq: 2, RunID: "r", Iteration: 1, Type: event.ModelDecided, Data: data(event.ModelDecidedData{ToolCalls: []event.DecidedCall{
			{ID: "a", Name: "read_file"}, {ID: "b", Name: "write_file"},
		}})},
		{Seq: 3, RunID: "r", Iteration: 1, Type: event.ToolStarted, Data: data(event.ToolStartedData{CallID: "a", Name: "read_file", Attempt: 1})},
		{Seq: 4, RunID: "r", Iteration: 1, Type: event.ToolStarted, Data: data(event.ToolStartedData{CallID: "a", Name: "read_file", Attempt: 2})},
	})
	if s.ToolCalls != 2 || s.Status != event.StatusRunning {
		t.Fatalf("tool calls %d status %s, want 2 running", s.ToolCalls, s.Status)
	}
}
