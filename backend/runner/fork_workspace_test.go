package runner_test

import (
	"errors"
	"path/filepath"
	"testing"

	"hermes/backend/event"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runner"
)

// TestManager_ForkInAnotherWorkspace: the Fork dialog's Choose… gives a
// fork a folder of its own (a copy, or the run's was removed); none keeps
// the run's, and one that is not there is refused as a new run's is.
func TestManager_ForkInAnotherWorkspace(t *testing.T) {
	srv := llmtest.NewServer(t,
		llmtest.Step{Content: "Done."},
		llmtest.Step{Content: "Done there."},
		llmtest.Step{Content: "Done here."},
	)
	m, _ := newManager(t, srv)
	src, err := m.Start(t.Context(), runner.StartRequest{Task: "Tidy the folder"})
	if err != nil {
		t.Fatal(err)
	}
	srcStarted := startedOf(t, waitEnd(t, m, src))

	other := t.TempDir()
	fork, err := m.Fork(t.Context(), src, runner.ForkRequest{Iteration: 1, Workspace: other})
	if err != nil {
		t.Fatal(err)
	}
	if got := startedOf(t, waitEnd(t, m, fork)).Workspace; got != other {
		t.Errorf("the fork works in %q; want the folder chosen, %q", got, other)
	}

	same, err := m.Fork(t.Context(), src, runner.ForkRequest{Iteration: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := startedOf(t, waitEnd(t, m, same)).Workspace; got != srcStarted.Workspace {
		t.Errorf("a fork that names no folder works in %q; want the run's, %q", got, srcStarted.Workspace)
	}

	gone := filepath.Join(other, "gone")
	if _, err := m.Fork(t.Context(), src, runner.ForkRequest{Iteration: 1, Workspace: gone}); !errors.Is(err, runner.ErrBadWorkspace) {
		t.Errorf("a fork into %s: %v; want ErrBadWorkspace", gone, err)
	}
}

func startedOf(t *testing.T, events []event.Event) event.RunStartedData {
	t.Helper()
	for _, e := range events {
		if e.Type == event.RunStarted {
			d, err := event.Decode[event.RunStartedData](e)
			if err != nil {
				t.Fatal(err)
			}
			return d
		}
	}
	t.Fatal("no run.started")
	return event.RunStartedData{}
}
