package sample_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"testing"
	"time"

	"hermes/backend/runlog"
	"hermes/backend/runner/sample"
)

var update = flag.Bool("update", false, "rewrite sample.expected.json from the Go fold")

// expected is what both folds of sample.jsonl must agree on: the Go run
// summary (runlog.Summarize) here, the desktop's timeline fold in
// frontend/src/lib/samplefold.test.ts, both against sample.expected.json.
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
}

// TestSample_GoFoldMatchesExpected: the run summary of the recorded sample
// holds the figures in sample.expected.json, which the frontend's fold is held
// to as well; `go test ./backend/runner/sample -run GoFold -update` rewrites it
// after the sample is recorded again.
func TestSample_GoFoldMatchesExpected(t *testing.T) {
	events, err := sample.Events()
	if err != nil {
		t.Fatal(err)
	}
	s := runlog.Summarize(events)
	got := expected{
		RunID: s.RunID, Task: s.Task, Status: s.Status, Model: s.Model, Workspace: s.Workspace,
		Started: s.Started.Format(time.RFC3339Nano), Ended: s.Ended.Format(time.RFC3339Nano),
		Iterations: s.Iterations, Tokens: s.Tokens, ToolCalls: s.ToolCalls,
		Answer: s.Answer, Verified: s.Verified, Events: len(events),
	}
	raw, err := json.MarshalIndent(got, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	raw = append(raw, '\n')
	if *update {
		if err := os.WriteFile("sample.expected.json", raw, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("sample.expected.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(raw, want) {
		t.Fatalf("the Go fold of sample.jsonl disagrees with sample.expected.json:\n got %s\nwant %s", raw, want)
	}
}
