package cli_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"hermes/backend/cli"
	"hermes/backend/event"
	"hermes/backend/homelock"
)

// whereRuns are the two places a `hermes run` goes on: in its own process,
// which owns the home for the run, or in the process that owns the home
// already. Approvals, questions, --yes and Ctrl-C behave the same in both.
var whereRuns = []struct {
	name     string
	attached bool
}{{"own process", false}, {"attached to serve", true}}

// TestRun_YesAnswersEachRequest: --yes answers each approval the run asks
// for with allow_once, in the run log, wherever the run goes on.
func TestRun_YesAnswersEachRequest(t *testing.T) {
	for _, where := range whereRuns {
		t.Run(where.name, func(t *testing.T) {
			var holding atomic.Bool
			ws := t.TempDir()
			home := modelHome(t, writeSteps(t, 2, -1, nil, &holding).URL, ws)
			if where.attached {
				defer startServeProcess(t, home).stop(t)
			}
			out := runHermes(t, "run", "--yes", "--json", "--home", home, "--workspace", ws, "write two files")
			if out.code != cli.ExitOK {
				t.Fatalf("exit %d\n%s", out.code, out.stderr)
			}
			var asked, allowed int
			for _, line := range strings.Split(strings.TrimSpace(out.stdout), "\n") {
				var e event.Event
				if json.Unmarshal([]byte(line), &e) != nil {
					continue
				}
				switch e.Type {
				case event.ApprovalRequested:
					asked++
				case event.ApprovalResolved:
					if d, _ := event.Decode[event.ApprovalResolvedData](e); d.Decision == event.ApproveOnce {
						allowed++
					}
				}
			}
			if asked != 2 || allowed != 2 {
				t.Fatalf("%d approvals asked, %d allowed once; want 2 and 2\n%s", asked, allowed, out.stderr)
			}
		})
	}
}

// TestRun_SecondCtrlCCancels: the first Ctrl-C asks the run to stop at its
// next safe point; the second cancels it at once, while the model still
// holds its answer, wherever the run goes on: its log ends stopped, and
// nothing of it is left live.
func TestRun_SecondCtrlCCancels(t *testing.T) {
	for _, where := range whereRuns {
		t.Run(where.name, func(t *testing.T) {
			hold := make(chan struct{})
			t.Cleanup(func() { close(hold) })
			var holding atomic.Bool
			holding.Store(true)
			ws := t.TempDir()
			home := modelHome(t, writeSteps(t, 3, 1, hold, &holding).URL, ws)
			if where.attached {
				defer startServeProcess(t, home).stop(t)
			}
			cmd := hermes(t, "run", "--yes", "--json", "--home", home, "--workspace", ws, "write three files")
			runID, stderr := pressTwice(t, cmd, 2)
			if cmd.ProcessState.ExitCode() != cli.ExitStopped {
				t.Fatalf("exit %d, want %d\n%s", cmd.ProcessState.ExitCode(), cli.ExitStopped, stderr)
			}
			if got := runStatus(t, home, runID); got != event.StatusStopped {
				t.Fatalf("the run was logged as %q: still live after the second Ctrl-C\n%s", got, stderr)
			}
		})
	}
}

// pressTwice starts cmd (a `hermes run --json`), presses Ctrl-C when the
// context of iteration n is built and again once hermes has taken the
// first, and returns the run's id and stderr once it has exited.
func pressTwice(t *testing.T, cmd *exec.Cmd, n int) (runID, stderr string) {
	t.Helper()
	return ctrlCAt(t, cmd, n, "Ctrl-C again", func() { cmd.Process.Signal(syscall.SIGINT) })
}

// TestRun_SIGTERMCancels: SIGTERM cancels the run at once, as a second
// Ctrl-C does, wherever it goes on.
func TestRun_SIGTERMCancels(t *testing.T) {
	for _, where := range whereRuns {
		t.Run(where.name, func(t *testing.T) {
			hold := make(chan struct{})
			t.Cleanup(func() { close(hold) })
			var holding atomic.Bool
			holding.Store(true)
			ws := t.TempDir()
			home := modelHome(t, writeSteps(t, 3, 1, hold, &holding).URL, ws)
			if where.attached {
				defer startServeProcess(t, home).stop(t)
			}
			cmd := hermes(t, "run", "--yes", "--json", "--home", home, "--workspace", ws, "write three files")
			var stderr strings.Builder
			cmd.Stderr = &stderr
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			runID := ""
			for e := range eventStream(t, stdout) {
				runID = e.RunID
				if e.Type == event.ContextBuilt && e.Iteration == 2 {
					cmd.Process.Signal(syscall.SIGTERM)
				}
			}
			cmd.Wait()
			if got := runStatus(t, home, runID); got != event.StatusStopped {
				t.Fatalf("the run was logged as %q after SIGTERM (exit %d)\n%s", got, cmd.ProcessState.ExitCode(), stderr.String())
			}
		})
	}
}

// TestRun_OwnsTheHomeForItsRun: a `hermes run` with no owner to go to owns
// the home while its run goes on, so `hermes pin` reaches the run, and the
// lock is gone once it is over.
func TestRun_OwnsTheHomeForItsRun(t *testing.T) {
	hold := make(chan struct{})
	var holding atomic.Bool
	holding.Store(true)
	ws := t.TempDir()
	srv := writeSteps(t, 1, 0, hold, &holding)
	// No planning call: the first request is the decision that waits.
	home := t.TempDir()
	toml := fmt.Sprintf("[model]\nbase_url = %q\nmax_retries = 0\n\n[agent]\nstrategy = \"react\"\nroute = false\n", srv.URL)
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := hermes(t, "run", "--yes", "--json", "--home", home, "--workspace", ws, "write one file")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pinned := false
	for e := range eventStream(t, stdout) {
		switch {
		case e.Type == event.ContextBuilt && e.Iteration == 1:
			lock, err := homelock.ReadLock(home)
			if err != nil || lock.Mode != "run" || lock.PID != cmd.Process.Pid {
				t.Errorf("hermes.lock during the run: %+v, %v", lock, err)
			}
			out := runHermes(t, "pin", "--home", home, e.RunID, "the budget is 500 EUR")
			if out.code != cli.ExitOK {
				t.Errorf("pin: exit %d\n%s", out.code, out.stderr)
			}
			holding.Store(false)
			close(hold)
		case e.Type == event.ContextPinned:
			pinned = true
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if !pinned {
		t.Error("the run never pinned the fact")
	}
	if _, err := os.Stat(homelock.LockPath(home)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the lock outlived the run: %v", err)
	}
}
