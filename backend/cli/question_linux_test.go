package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"hermes/backend/agent/agenttest"
	"hermes/backend/cli"
	"hermes/backend/event"
)

// TestRun_QuestionAtTheTerminal drives `hermes run` through a terminal:
// the model's guessed path fails, Hermes asks, and the answer typed in is
// what the model uses next, wherever the run goes on.
func TestRun_QuestionAtTheTerminal(t *testing.T) {
	for _, where := range whereRuns {
		t.Run(where.name, func(t *testing.T) {
			ws := t.TempDir()
			if err := os.WriteFile(filepath.Join(ws, "june.md"), []byte("We agreed on the budget."), 0o644); err != nil {
				t.Fatal(err)
			}
			home := modelHome(t, agenttest.GuessingModel(t).URL, ws)
			if where.attached {
				defer startServeProcess(t, home).stop(t)
			}
			master, slave := openPTY(t)
			cmd := hermes(t, "run", "--json", "--home", home, "--workspace", ws, "Summarise the meeting notes")
			cmd.Stdin = slave
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			if _, err := master.WriteString("june.md\n"); err != nil {
				t.Fatal(err)
			}
			if err := cmd.Wait(); err != nil {
				t.Fatalf("%v\n%s", err, stderr.String())
			}
			if !strings.Contains(stderr.String(), "meeting.md") {
				t.Errorf("the question was not shown:\n%s", stderr.String())
			}
			if attached := strings.Contains(stderr.String(), "attached to hermes serve"); attached != where.attached {
				t.Fatalf("attached to the owner: %v, want %v\n%s", attached, where.attached, stderr.String())
			}
			var answer string
			var fin event.RunFinishedData
			for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
				var e event.Event
				if json.Unmarshal([]byte(line), &e) != nil {
					continue
				}
				switch e.Type {
				case event.QuestionAnswered:
					d, _ := event.Decode[event.QuestionAnsweredData](e)
					answer = d.By + ":" + d.Answer
				case event.RunFinished:
					fin, _ = event.Decode[event.RunFinishedData](e)
				}
			}
			if answer != "user:june.md" || fin.Status != event.StatusFinished || !fin.Verified {
				t.Fatalf("answer %q, finished %+v\n%s", answer, fin, stderr.String())
			}
		})
	}
}

// TestRun_CtrlCDuringAPrompt: Ctrl-C while the terminal asks about a call
// stops the run (the approval is answered by the stop) and hermes exits,
// without waiting for the prompt's answer, wherever the run goes on.
func TestRun_CtrlCDuringAPrompt(t *testing.T) {
	for _, where := range whereRuns {
		t.Run(where.name, func(t *testing.T) {
			var holding atomic.Bool
			ws := t.TempDir()
			home := modelHome(t, writeSteps(t, 1, -1, nil, &holding).URL, ws)
			if where.attached {
				defer startServeProcess(t, home).stop(t)
			}
			_, slave := openPTY(t)
			cmd := hermes(t, "run", "--json", "--home", home, "--workspace", ws, "write one file")
			cmd.Stdin = slave
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
				if e.Type == event.ApprovalRequested {
					cmd.Process.Signal(syscall.SIGINT)
				}
			}
			cmd.Wait()
			if code := cmd.ProcessState.ExitCode(); code != cli.ExitStopped {
				t.Fatalf("exit %d, want %d", code, cli.ExitStopped)
			}
			if got := runStatus(t, home, runID); got != event.StatusStopped {
				t.Fatalf("the run was logged as %q", got)
			}
		})
	}
}
