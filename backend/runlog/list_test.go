package runlog

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hermes/backend/event"
)

// makeTree writes a home with a finished run, a crashed one, a resumed one
// and two logs that cannot be read.
func makeTree(t *testing.T) (home string, bad []string) {
	t.Helper()
	home = t.TempDir()
	day1, day2 := t0, t0.Add(26*time.Hour)
	logRun(t, home, "20261130-013501-aaaaaa", day1, func(em *event.Emitter) {
		emitStart(t, em, "finished task")
		emitIteration(t, em, 1, 100)
		emitIteration(t, em, 2, 150)
		emitFinish(t, em, 2, event.StatusFinished, "the answer")
	})
	logRun(t, home, "20261201-033501-bbbbbb", day2, func(em *event.Emitter) {
		emitStart(t, em, "crashed task")
		emitIteration(t, em, 1, 70)
	})
	logRun(t, home, "20261201-043501-cccccc", day2.Add(time.Hour), func(em *event.Emitter) {
		emitStart(t, em, "resumed task")
		emitIteration(t, em, 1, 10)
		emitFinish(t, em, 1, event.StatusStopped, "")
		mustEmit(t, em, event.RunResumed, 1, event.RunResumedData{FromCheckpoint: true, Iteration: 1})
		mustEmit(t, em, event.TaskEdited, 1, event.TaskEditedData{OldTask: "resumed task", NewTask: "edited task"})
		emitIteration(t, em, 2, 20)
		// A retry of the same call is not another call.
		mustEmit(t, em, event.ToolStarted, 2, event.ToolStartedData{CallID: "call_1", Name: "read_file", Attempt: 2})
		emitIteration(t, em, 3, 30)
		emitFinish(t, em, 3, event.StatusFinished, "resumed answer")
	})
	garbage := filepath.Join(home, "logs", "2026-12-01", "run_garbage.jsonl")
	empty := filepath.Join(home, "logs", "2026-12-01", "run_empty.jsonl")
	for p, content := range map[string]string{garbage: "not json\n{}\n", empty: "", filepath.Join(home, "logs", "README.txt"): "not a log"} {
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return home, []string{empty, garbage}
}

func TestList(t *testing.T) {
	home, bad := makeTree(t)
	sums, err := List(home)
	var skipped *SkippedError
	if !errors.As(err, &skipped) || !errors.Is(err, ErrUnreadableLog) {
		t.Fatalf("err = %v, want a *SkippedError wrapping ErrUnreadableLog", err)
	}
	var skippedPaths []string
	for _, l := range skipped.Logs {
		skippedPaths = append(skippedPaths, l.Path)
	}
	if strings.Join(skippedPaths, ",") != strings.Join(bad, ",") {
		t.Errorf("skipped %v, want %v", skippedPaths, bad)
	}

	want := []Summary{
		{RunID: "20261201-043501-cccccc", Task: "edited task", Status: event.StatusFinished, Iterations: 3, Tokens: 60, ToolCalls: 3, Answer: "resumed answer", Verified: true},
		{RunID: "20261201-033501-bbbbbb", Task: "crashed task", Status: event.StatusRunning, Iterations: 1, Tokens: 70, ToolCalls: 1},
		{RunID: "20261130-013501-aaaaaa", Task: "finished task", Status: event.StatusFinished, Iterations: 2, Tokens: 250, ToolCalls: 2, Answer: "the answer", Verified: true},
	}
	if len(sums) != len(want) {
		t.Fatalf("got %d runs, want %d: %+v", len(sums), len(want), sums)
	}
	for i, w := range want {
		s := sums[i]
		if s.RunID != w.RunID || s.Task != w.Task || s.Status != w.Status || s.Iterations != w.Iterations ||
			s.Tokens != w.Tokens || s.ToolCalls != w.ToolCalls || s.Answer != w.Answer || s.Verified != w.Verified {
			t.Errorf("run %d:\n got %+v\nwant %+v", i, s, w)
		}
		if s.Model != "gpt-4o-mini" || s.Workspace != "/ws" || s.Started.IsZero() {
			t.Errorf("run %d lacks model, workspace or start: %+v", i, s)
		}
		if (s.Status == event.StatusRunning) != s.Ended.IsZero() {
			t.Errorf("run %d: status %s with end %v", i, s.Status, s.Ended)
		}
		if p, _ := Find(home, s.RunID); s.Path != p {
			t.Errorf("run %d: path %s, Find says %s", i, s.Path, p)
		}
	}
}

// The fast fold of List must agree with folding every event.
func TestList_AgreesWithSummarize(t *testing.T) {
	home, _ := makeTree(t)
	sums, _ := List(home)
	for _, s := range sums {
		events, err := ReadFile(s.Path)
		if err != nil {
			t.Fatal(err)
		}
		full := Summarize(events)
		full.Path = s.Path
		if full != s {
			t.Errorf("List gave\n%+v\nSummarize gives\n%+v", s, full)
		}
	}
}

func TestList_NoLogsYet(t *testing.T) {
	sums, err := List(t.TempDir())
	if err != nil || len(sums) != 0 {
		t.Fatalf("List of a new home = %v, %v; want no runs and no error", sums, err)
	}
}

func TestFind(t *testing.T) {
	home, _ := makeTree(t)
	id := "20261130-013501-aaaaaa"
	// A log moved by hand to another day's directory is still found.
	moved := filepath.Join(home, "logs", "2026-12-01", "run_"+id+".jsonl")
	if err := os.Rename(LogPath(home, id, t0), moved); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		id   string
		want string
	}{
		{"20261201-033501-bbbbbb", LogPath(home, "20261201-033501-bbbbbb", t0.Add(26*time.Hour))},
		{id, moved},
		{"20261130-000000-ffffff", ""},
		{"../hermes", ""},
		{"*", ""},
		{"", ""},
	}
	for _, tt := range tests {
		got, err := Find(home, tt.id)
		if tt.want == "" {
			if !errors.Is(err, ErrRunNotFound) || !strings.Contains(err.Error(), "hermes runs") {
				t.Errorf("Find(%q) = %q, %v; want ErrRunNotFound pointing at `hermes runs`", tt.id, got, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Find(%q) = %q, %v; want %q", tt.id, got, err, tt.want)
		}
	}
}

// Listing again sees a run that went on since (its log grew), not the
// summary remembered from before.
func TestList_SeesALogThatChanged(t *testing.T) {
	home := t.TempDir()
	logRun(t, home, "20261130-013501-aaaaaa", t0, func(em *event.Emitter) {
		emitStart(t, em, "task")
		emitIteration(t, em, 1, 100)
	})
	before, err := List(home)
	if err != nil || len(before) != 1 || before[0].Status != event.StatusRunning {
		t.Fatalf("before: %+v, %v", before, err)
	}
	path := before[0].Path
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := Append(path, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	em := event.NewEmitter("20261130-013501-aaaaaa", event.EmitterOptions{LastSeq: 8, Sinks: []event.Sink{w}})
	emitFinish(t, em, 1, event.StatusFinished, "done")
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	after, err := List(home)
	if err != nil || len(after) != 1 || after[0].Status != event.StatusFinished || after[0].Answer != "done" {
		t.Fatalf("after the run finished: %+v, %v", after, err)
	}
}
