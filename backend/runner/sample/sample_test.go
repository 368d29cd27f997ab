package sample_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"hermes/backend/event"
	"hermes/backend/runlog"
	"hermes/backend/runner/sample"
)

// TestSample_IsARealisticRunThatReplays: the shipped sample is a finished
// run with what a newcomer should see: several iterations, reads and a
// write, a model retry, a guard warning, streamed text; and no path or
// address of the machine it was recorded on.
func TestSample_IsARealisticRunThatReplays(t *testing.T) {
	events, err := sample.Events()
	if err != nil {
		t.Fatal(err)
	}
	s := runlog.Summarize(events)
	if s.Status != event.StatusFinished || !s.Verified || s.Iterations < 5 || s.Answer == "" {
		t.Fatalf("summary %+v", s)
	}
	seen := map[string]bool{}
	for i, e := range events {
		if e.Seq != int64(i+1) || e.RunID != s.RunID {
			t.Fatalf("event %d: seq %d run %s", i, e.Seq, e.RunID)
		}
		seen[string(e.Type)] = true
		if e.Type == event.ToolFinished {
			d, err := event.Decode[event.ToolFinishedData](e)
			if err != nil {
				t.Fatal(err)
			}
			seen[d.Name+" ok="+map[bool]string{true: "true", false: "false"}[d.OK]] = true
		}
		if e.Type == event.GuardTripped {
			d, _ := event.Decode[event.GuardTrippedData](e)
			seen["guard "+d.Action] = true
		}
	}
	for _, want := range []string{
		"model.delta", "model.retried", "guard warn", "context.built",
		"list_files ok=true", "read_file ok=true", "read_file ok=false", "write_file ok=true",
	} {
		if !seen[want] {
			t.Errorf("the sample has no %s", want)
		}
	}

	raw, err := os.ReadFile("sample.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, machine := range []string{os.TempDir(), "127.0.0.1", "localhost", "sk-"} {
		if bytes.Contains(raw, []byte(machine)) {
			t.Errorf("the sample names %q", machine)
		}
	}
	if !strings.Contains(string(raw), "~/meeting-notes") {
		t.Error("the sample's workspace is not the neutral one")
	}
}
