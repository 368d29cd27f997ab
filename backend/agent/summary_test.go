package agent_test

import (
	"testing"

	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runlog"
	"hermes/backend/store"
)

// A run keeps its summary in the store it checkpoints to, so lists read it
// there instead of reading the log: once it is over, the summary is the one
// folded from the whole log.
func TestRun_KeepsItsSummaryInTheStore(t *testing.T) {
	srv := llmtest.NewServer(t,
		llmtest.Step{ToolCalls: []llm.ToolCall{call("c1", "read_file", map[string]any{"path": "notes.txt"})}},
		llmtest.Step{Content: "The note says: buy milk."},
	)
	h := newHarness(t, srv)
	h.write("notes.txt", "buy milk")
	_, events := h.run("Read notes.txt")
	id := events[0].RunID
	got, err := runlog.NewIndex(h.home, h.setup.Store.(*store.Store)).Prefix(id, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := runlog.Summarize(events)
	if len(got) != 1 {
		t.Fatalf("no summary of run %s in the store", id)
	}
	got[0].Path = ""
	if got[0] != want || want.Status != event.StatusFinished || want.ToolCalls != 1 {
		t.Fatalf("summary %+v, want %+v", got[0], want)
	}
}
