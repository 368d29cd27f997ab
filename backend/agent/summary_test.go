package agent_test

import (
	"sync/atomic"
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

// ownCommits is the run's real store, counting the summaries saved in
// commits of their own (PutRunSummary) rather than in a checkpoint's.
type ownCommits struct {
	*store.Store
	summaries atomic.Int32
}

func (s *ownCommits) PutRunSummary(r store.RunSummary) error {
	s.summaries.Add(1)
	return s.Store.PutRunSummary(r)
}

// The run's summary is kept in the commit of the checkpoint that ends each
// iteration, not in a synced commit of its own: hermes.db is committed (and
// fsynced) at most once per checkpoint, plus once when the log closes, once
// for the long-term memory the finished run writes and once to delete its
// checkpoint.
func TestRun_SummaryRidesTheCheckpointCommit(t *testing.T) {
	srv := llmtest.NewServer(t,
		llmtest.Step{ToolCalls: []llm.ToolCall{call("c1", "read_file", map[string]any{"path": "a.txt"})}},
		llmtest.Step{ToolCalls: []llm.ToolCall{call("c2", "read_file", map[string]any{"path": "b.txt"})}},
		llmtest.Step{ToolCalls: []llm.ToolCall{call("c3", "read_file", map[string]any{"path": "c.txt"})}},
		llmtest.Step{Content: "a, b and c."},
	)
	h := newHarness(t, srv)
	for _, name := range []string{"a.txt", "b.txt", "c.txt"} {
		h.write(name, name)
	}
	st := &ownCommits{Store: h.setup.Store.(*store.Store)}
	h.setup.Store = st
	before, err := st.Commits()
	if err != nil {
		t.Fatal(err)
	}
	_, events := h.run("Read a.txt, b.txt and c.txt")
	after, err := st.Commits()
	if err != nil {
		t.Fatal(err)
	}
	checkpoints := len(ofType(events, event.CheckpointSaved))
	if checkpoints < 3 {
		t.Fatalf("%d checkpoints, want one per iteration", checkpoints)
	}
	if n := st.summaries.Load(); n > 1 {
		t.Errorf("the summary was saved in %d commits of its own, want at most one (at close)", n)
	}
	// Checkpoints queued while one commits share the next commit, so a fast
	// machine may need fewer.
	if got, most := after-before, checkpoints+3; got > most {
		t.Errorf("the run committed hermes.db %d times for %d checkpoints, want at most %d", got, checkpoints, most)
	}
	got, err := runlog.NewIndex(h.home, st.Store).Prefix(events[0].RunID, 1)
	if err != nil || len(got) != 1 {
		t.Fatalf("the run's summary: %v, %v", got, err)
	}
	got[0].Path = ""
	if want := runlog.Summarize(events); got[0] != want {
		t.Errorf("summary %+v, want %+v", got[0], want)
	}
}
