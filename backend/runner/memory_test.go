package runner_test

import (
	"errors"
	"strings"
	"testing"

	"hermes/backend/event"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runner"
)

// memoryOf is what run.started says of a run's long-term memory, and what
// memory.recalled gave it.
func memoryOf(t *testing.T, events []event.Event) (*event.MemoryUse, []event.MemoryRef) {
	t.Helper()
	var use *event.MemoryUse
	var refs []event.MemoryRef
	for _, e := range events {
		switch e.Type {
		case event.RunStarted:
			d, err := event.Decode[event.RunStartedData](e)
			if err != nil {
				t.Fatal(err)
			}
			use = d.Memory
		case event.MemoryRecalled:
			d, err := event.Decode[event.MemoryRecalledData](e)
			if err != nil {
				t.Fatal(err)
			}
			refs = append(refs, d.Entries...)
		}
	}
	return use, refs
}

// lastAsked is the text of the last request the model was sent.
func lastAsked(srv *llmtest.Server) string {
	reqs := srv.Requests()
	var b strings.Builder
	for _, m := range reqs[len(reqs)-1].Messages {
		b.WriteString(m.Content + "\n")
	}
	return b.String()
}

// TestManager_ForkIsTheSameExperiment: a fork recalls no long-term memory
// by default, so it is never given its source's own answer; asked to, it
// recalls the memory as it stood when its source started (what an earlier
// run kept), never what the source wrote. run.started says which.
func TestManager_ForkIsTheSameExperiment(t *testing.T) {
	srv := llmtest.NewServer(t,
		llmtest.Step{Content: "Draft: Q3 sales revenue about 1.2 million."},
		llmtest.Step{Content: "Q3 revenue was 1,204,000."},
		llmtest.Step{Content: "Forked: Q3 revenue was 1,204,000."},
		llmtest.Step{Content: "Forked, reading: Q3 revenue was 1,204,000."},
	)
	m, _ := newManager(t, srv)
	earlier, err := m.Start(t.Context(), runner.StartRequest{Task: "Draft the Q3 sales report"})
	if err != nil {
		t.Fatal(err)
	}
	waitEnd(t, m, earlier)
	src, err := m.Start(t.Context(), runner.StartRequest{Task: "Compile the Q3 sales report"})
	if err != nil {
		t.Fatal(err)
	}
	events := waitEnd(t, m, src)
	if use, refs := memoryOf(t, events); use == nil || use.Mode != "on" || len(refs) != 1 || refs[0].RunID != earlier {
		t.Fatalf("the source's memory = %+v, recalled %+v; want on, with the earlier run's draft", use, refs)
	}
	srcStarted := events[0].Time

	fork, err := m.Fork(t.Context(), src, runner.ForkRequest{Iteration: 1})
	if err != nil {
		t.Fatal(err)
	}
	events = waitEnd(t, m, fork)
	use, refs := memoryOf(t, events)
	if use == nil || use.Mode != "off" || len(refs) != 0 || len(ofType(events, event.MemoryWritten)) != 0 {
		t.Fatalf("a fork's memory = %+v, recalled %+v; want off, nothing recalled or written", use, refs)
	}
	if asked := lastAsked(srv); strings.Contains(asked, "1,204,000") || strings.Contains(asked, "1.2 million") {
		t.Fatalf("the fork was sent a memory: %s", asked)
	}

	read, err := m.Fork(t.Context(), src, runner.ForkRequest{Iteration: 1, Memory: "read"})
	if err != nil {
		t.Fatal(err)
	}
	events = waitEnd(t, m, read)
	use, refs = memoryOf(t, events)
	if use == nil || use.Mode != "read" || !use.AsOf.Equal(srcStarted) {
		t.Fatalf("a fork reading memory = %+v; want read as of %s, when its source started", use, srcStarted)
	}
	if len(refs) != 1 || refs[0].RunID != earlier || len(ofType(events, event.MemoryWritten)) != 0 {
		t.Fatalf("a fork reading memory recalled %+v; want only the earlier run's draft, and nothing written", refs)
	}
	if asked := lastAsked(srv); strings.Contains(asked, "1,204,000") || !strings.Contains(asked, "1.2 million") {
		t.Fatalf("the fork reading memory was sent: %s", asked)
	}

	if _, err := m.Fork(t.Context(), src, runner.ForkRequest{Iteration: 1, Memory: "sometimes"}); !errors.Is(err, runner.ErrInvalidMemory) {
		t.Fatalf("a fork with memory %q: %v", "sometimes", err)
	}
}

// TestManager_StartsWithItsOwnMemory: a run may switch long-term memory off
// (or to read) for itself, whatever [context] memory says; a mode that is
// none is refused before the run starts, saying which are.
func TestManager_StartsWithItsOwnMemory(t *testing.T) {
	srv := llmtest.NewServer(t,
		llmtest.Step{Content: "Q3 revenue was 1,204,000."},
		llmtest.Step{Content: "Updated, without memory."},
	)
	m, _ := newManager(t, srv)
	first, err := m.Start(t.Context(), runner.StartRequest{Task: "Compile the Q3 sales report"})
	if err != nil {
		t.Fatal(err)
	}
	waitEnd(t, m, first)
	off, err := m.Start(t.Context(), runner.StartRequest{Task: "Update the Q3 sales report", Memory: "off"})
	if err != nil {
		t.Fatal(err)
	}
	events := waitEnd(t, m, off)
	if use, refs := memoryOf(t, events); use == nil || use.Mode != "off" || len(refs) != 0 || len(ofType(events, event.MemoryWritten)) != 0 {
		t.Fatalf("a run with memory off = %+v, recalled %+v", use, refs)
	}
	_, err = m.Start(t.Context(), runner.StartRequest{Task: "Update the Q3 sales report", Memory: "yes"})
	if !errors.Is(err, runner.ErrInvalidMemory) || !strings.Contains(err.Error(), `"read"`) {
		t.Fatalf("a run with memory %q: %v", "yes", err)
	}
	if e := runner.Explain(err); e.Code != "bad_memory" {
		t.Errorf("the API's code for it: %+v", e)
	}
}

func ofType(events []event.Event, typ event.Type) []event.Event {
	var out []event.Event
	for _, e := range events {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}
