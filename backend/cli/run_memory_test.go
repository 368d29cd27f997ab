package cli_test

import (
	"strings"
	"sync/atomic"
	"testing"

	"hermes/backend/cli"
	"hermes/backend/event"
	"hermes/backend/runlog"
)

// hermes run --memory switches long-term memory for one run: "off" recalls
// and keeps nothing and the header says so; a mode that is none is a
// mistake in the command line, told before any run starts.
func TestRun_MemoryFlag(t *testing.T) {
	var holding atomic.Bool
	srv := writeSteps(t, 1, -1, nil, &holding)
	home := t.TempDir()
	out := runHermes(t, "run", "--yes", "--home", home, "--base-url", srv.URL, "--workspace", t.TempDir(), "--memory", "off", "write a file")
	if out.code != cli.ExitOK || !strings.Contains(out.stdout, "off for this run: nothing recalled, nothing kept") {
		t.Fatalf("exit %d\n%s\n%s", out.code, out.stdout, out.stderr)
	}
	runs, err := runlog.List(home)
	if err != nil || len(runs) != 1 {
		t.Fatalf("runs = %+v, %v", runs, err)
	}
	events, err := runlog.ReadFile(runs[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range events {
		if e.Type == event.MemoryWritten || e.Type == event.MemoryRecalled {
			t.Errorf("a run with memory off logged %s %s", e.Type, e.Data)
		}
	}

	out = runHermes(t, "run", "--home", t.TempDir(), "--base-url", srv.URL, "--memory", "sometimes", "write a file")
	if out.code != cli.ExitUsage || !strings.Contains(out.stderr, `memory "sometimes" is not a mode`) {
		t.Errorf("a bad mode: exit %d, stderr %q", out.code, out.stderr)
	}
}
