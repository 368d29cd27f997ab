package sample_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"testing"
	"time"

	"hermes/backend/event"
	"hermes/backend/runlog"
	"hermes/backend/runner/sample"
)

var update = flag.Bool("update", false, "rewrite the *.expected.json files from the Go fold")

// expected is what both folds of a recorded run (sample.jsonl, controls.jsonl)
// must agree on: the Go run summary (runlog.Summarize) here, the desktop's
// timeline fold in frontend/src/lib/samplefold.test.ts, both against the
// run's NAME.expected.json.
type expected struct {
	RunID      string `json:"run_id"`
	Task       string `json:"task"`
	Status     string `json:"status"`
	Model      string `json:"model"`
	Workspace  string `json:"workspace"`
	Started    string `json:"started"`
	Ended      string `json:"ended"`
	Iterations int    `json:"iterations"`
	Tokens     int    `json:"tokens"`
	ToolCalls  int    `json:"tool_calls"`
	Answer     string `json:"answer"`
	Verified   bool   `json:"verified"`
	Events     int    `json:"events"`
	// Live is the fold of every event before run.finished: what the runs
	// list and the run page show while the run goes, before the totals.
	Live *live `json:"live,omitempty"`
}

type live struct {
	Status     string `json:"status"`
	Iterations int    `json:"iterations"`
	Tokens     int    `json:"tokens"`
	ToolCalls  int    `json:"tool_calls"`
}

// TestSample_GoFoldMatchesExpected: the run summary of each recorded run
// holds the figures in its expected file, which the frontend's fold is held
// to as well; `go test ./backend/runner/sample -run GoFold -update` rewrites
// them after the runs are recorded again (go generate).
func TestSample_GoFoldMatchesExpected(t *testing.T) {
	shipped, err := sample.Events()
	if err != nil {
		t.Fatal(err)
	}
	controls, err := runlog.ReadFile("controls.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for name, events := range map[string][]event.Event{"sample": shipped, "controls": controls} {
		t.Run(name, func(t *testing.T) { checkFold(t, name, events) })
	}
}

func checkFold(t *testing.T, name string, events []event.Event) {
	s := runlog.Summarize(events)
	got := expected{
		RunID: s.RunID, Task: s.Task, Status: s.Status, Model: s.Model, Workspace: s.Workspace,
		Started: s.Started.Format(time.RFC3339Nano), Ended: s.Ended.Format(time.RFC3339Nano),
		Iterations: s.Iterations, Tokens: s.Tokens, ToolCalls: s.ToolCalls,
		Answer: s.Answer, Verified: s.Verified, Events: len(events),
	}
	if n := len(events); n > 0 && events[n-1].Type == event.RunFinished {
		l := runlog.Summarize(events[:n-1])
		got.Live = &live{Status: l.Status, Iterations: l.Iterations, Tokens: l.Tokens, ToolCalls: l.ToolCalls}
	}
	raw, err := json.MarshalIndent(got, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	raw = append(raw, '\n')
	if *update {
		if err := os.WriteFile(name+".expected.json", raw, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(name + ".expected.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(raw, want) {
		t.Fatalf("the Go fold of %s.jsonl disagrees with %s.expected.json:\n got %s\nwant %s", name, name, raw, want)
	}
}

// TestControls_CoversASteeredRun: controls.jsonl holds the events the
// shipped sample has not, so both folds meet them; and, like the sample, no
// address or key of the machine it was recorded on.
func TestControls_CoversASteeredRun(t *testing.T) {
	events, err := runlog.ReadFile("controls.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, e := range events {
		seen[string(e.Type)] = true
		if e.Type == event.ApprovalResolved {
			d, _ := event.Decode[event.ApprovalResolvedData](e)
			seen["approval "+d.Decision] = true
		}
	}
	for _, want := range []string{
		"model.reasoning", "model.retried", "summary.updated", "run.paused", "instruction.injected", "run.resumed",
		"approval " + event.ApproveDeny, "approval " + event.ApproveOnce, "run.finished",
	} {
		if !seen[want] {
			t.Errorf("controls.jsonl has no %s", want)
		}
	}
	raw, err := os.ReadFile("controls.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, machine := range []string{os.TempDir(), "127.0.0.1", "localhost", "sk-"} {
		if bytes.Contains(raw, []byte(machine)) {
			t.Errorf("controls.jsonl names %q", machine)
		}
	}
}
