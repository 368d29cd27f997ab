package runlog

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"hermes/backend/event"
	"hermes/backend/store"
)

func openStore(t *testing.T, home string) *store.Store {
	t.Helper()
	st, err := store.Open(filepath.Join(home, "hermes.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// settleDays dates every day folder back, as if its last change were long
// ago, so Sync may trust its modification time.
func settleDays(t *testing.T, home string) {
	t.Helper()
	days, _ := filepath.Glob(filepath.Join(home, "logs", "*"))
	old := time.Now().Add(-time.Hour)
	for _, d := range days {
		if err := os.Chtimes(d, old, old); err != nil {
			t.Fatal(err)
		}
	}
}

func ids(sums []Summary) []string {
	out := make([]string, len(sums))
	for i, s := range sums {
		out[i] = s.RunID
	}
	return out
}

// makeRuns logs n finished runs a minute apart, without summaries, as an
// older Hermes wrote them; every third one stopped.
func makeRuns(t *testing.T, home string, n int) {
	t.Helper()
	for i := range n {
		started := t0.Add(time.Duration(i) * time.Minute)
		status := event.StatusFinished
		if i%3 == 0 {
			status = event.StatusStopped
		}
		logRun(t, home, NewRunID(started)[:16]+fmt.Sprintf("%06d", i), started, func(em *event.Emitter) {
			emitStart(t, em, fmt.Sprintf("task %d", i))
			emitIteration(t, em, 1, 100)
			emitFinish(t, em, 1, status, "done")
		})
	}
}

func TestIndex_RebuildsFromOldLogsAsListDoes(t *testing.T) {
	home, bad := makeTree(t)
	x := NewIndex(home, openStore(t, home))
	err := x.Sync()
	var skipped *SkippedError
	if !errors.As(err, &skipped) || len(skipped.Logs) != len(bad) {
		t.Fatalf("Sync = %v, want the %d unreadable logs named", err, len(bad))
	}
	want, _ := List(home)
	got, err := x.Page("", 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ids(got.Runs), ids(want)) {
		t.Fatalf("index lists %v, the logs %v", ids(got.Runs), ids(want))
	}
	for i := range want {
		if got.Runs[i] != want[i] {
			t.Errorf("run %d: index %+v, log %+v", i, got.Runs[i], want[i])
		}
	}
}

func TestIndex_RebuiltOnceAndKept(t *testing.T) {
	home := t.TempDir()
	makeRuns(t, home, 5)
	settleDays(t, home)
	x := NewIndex(home, openStore(t, home))
	if err := x.Sync(); err != nil {
		t.Fatal(err)
	}
	// Rewriting a log in place leaves its folder as it was: a kept index
	// never reads the log again.
	p, _ := x.Page("", 1, nil)
	if err := os.WriteFile(p.Runs[0].Path, []byte("not json\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	settleDays(t, home)
	if err := x.Sync(); err != nil {
		t.Fatalf("Sync read a log again: %v", err)
	}
	again, _ := x.Page("", 1, nil)
	if again.Runs[0] != p.Runs[0] {
		t.Fatalf("summary changed: %+v, was %+v", again.Runs[0], p.Runs[0])
	}
}

func TestIndex_PagesWithCursorAndFilter(t *testing.T) {
	home := t.TempDir()
	makeRuns(t, home, 25)
	x := NewIndex(home, openStore(t, home))
	if err := x.Sync(); err != nil {
		t.Fatal(err)
	}
	all, _ := List(home)
	var got []string
	before := ""
	for range 3 {
		p, err := x.Page(before, 10, nil)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, ids(p.Runs)...)
		before = p.Next
		if before == "" {
			break
		}
	}
	if !slices.Equal(got, ids(all)) || before != "" {
		t.Fatalf("pages gave %v (next %q), want %v", got, before, ids(all))
	}

	stopped := func(s Summary) bool { return s.Status == event.StatusStopped }
	p, err := x.Page("", 4, stopped)
	if err != nil {
		t.Fatal(err)
	}
	rest, err := x.Page(p.Next, 0, stopped)
	if err != nil {
		t.Fatal(err)
	}
	wantStopped := ids(slices.DeleteFunc(slices.Clone(all), func(s Summary) bool { return !stopped(s) }))
	if g := append(ids(p.Runs), ids(rest.Runs)...); !slices.Equal(g, wantStopped) || len(p.Runs) != 4 {
		t.Fatalf("stopped runs %v, want %v in pages of 4", g, wantStopped)
	}

	if _, err := x.Page("no-such-run", 10, nil); !errors.Is(err, ErrBadCursor) {
		t.Fatalf("bad cursor: err = %v, want ErrBadCursor", err)
	}
}

func TestIndex_Prefix(t *testing.T) {
	home := t.TempDir()
	makeRuns(t, home, 12)
	x := NewIndex(home, openStore(t, home))
	if err := x.Sync(); err != nil {
		t.Fatal(err)
	}
	all, _ := List(home)
	one := all[3].RunID
	got, err := x.Prefix(one[:len(one)-1], 5)
	if err != nil || len(got) != 1 || got[0].RunID != one || got[0].Path != all[3].Path {
		t.Fatalf("Prefix(%s) = %v, %v; want the one run", one[:len(one)-1], got, err)
	}
	many, err := x.Prefix(one[:8], 5)
	if err != nil || len(many) != 5 {
		t.Fatalf("a prefix of all: %d runs, %v; want 5 (the limit)", len(many), err)
	}
	none, err := x.Prefix("1999", 5)
	if err != nil || len(none) != 0 {
		t.Fatalf("no match: %v, %v", none, err)
	}
}

// A run whose writer keeps its summary lists from its first checkpoint,
// live and finished, without a Sync; a run that crashed before it saved one
// (or an older Hermes's) lists after the next Sync, and a removed log is
// dropped.
func TestIndex_WriterKeepsSummaryAndSyncFindsTheRest(t *testing.T) {
	home := t.TempDir()
	makeRuns(t, home, 2)
	st := openStore(t, home)
	x := NewIndex(home, st)
	if err := x.Sync(); err != nil {
		t.Fatal(err)
	}

	started := t0.Add(time.Hour)
	w, err := Create(home, "20261130-023501-kept00", started)
	if err != nil {
		t.Fatal(err)
	}
	w.KeepSummary(st)
	em := event.NewEmitter("20261130-023501-kept00", event.EmitterOptions{Sinks: []event.Sink{w}, Now: func() time.Time { return started }})
	emitStart(t, em, "kept task")
	emitIteration(t, em, 1, 40)
	// A checkpoint: the loop flushes, the store's writer syncs the log and
	// commits the summary with the checkpoint.
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	saving := st.QueueCheckpoint(store.Checkpoint{RunID: "20261130-023501-kept00", Before: w.Sync, Summary: w.TakeSummary})
	if err := saving.Wait(); err != nil {
		t.Fatal(err)
	}
	live, _ := x.Prefix("20261130-023501-kept", 1)
	if len(live) != 1 || live[0].Status != event.StatusRunning || live[0].Tokens != 40 {
		t.Fatalf("at the checkpoint: %+v, want running with 40 tokens", live)
	}
	emitFinish(t, em, 1, event.StatusFinished, "ok")
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	done, _ := x.Prefix("20261130-023501-kept", 1)
	if len(done) != 1 || done[0].Status != event.StatusFinished || done[0].Answer != "ok" {
		t.Fatalf("after run.finished: %+v", done)
	}

	// Crashed before any summary: its log only.
	logRun(t, home, "20261130-033501-crash0", t0.Add(2*time.Hour), func(em *event.Emitter) {
		emitStart(t, em, "crashed")
		emitIteration(t, em, 1, 10)
	})
	if err := os.Remove(LogPath(home, "20261130-013501-000000", t0)); err != nil {
		t.Fatal(err)
	}
	if err := x.Sync(); err != nil {
		t.Fatal(err)
	}
	p, _ := x.Page("", 0, nil)
	want := []string{"20261130-033501-crash0", "20261130-023501-kept00", "20261130-013601-000001"}
	if !slices.Equal(ids(p.Runs), want) {
		t.Fatalf("listed %v, want %v", ids(p.Runs), want)
	}
	if p.Runs[0].Status != event.StatusRunning {
		t.Fatalf("crashed run: %+v", p.Runs[0])
	}
}

// A resumed run's writer folds the part of the log it kept, so its summary
// counts both legs.
func TestIndex_ResumedWriterCountsTheWholeRun(t *testing.T) {
	home := t.TempDir()
	st := openStore(t, home)
	id := "20261130-013501-resume"
	logRun(t, home, id, t0, func(em *event.Emitter) {
		emitStart(t, em, "two legs")
		emitIteration(t, em, 1, 100)
		emitFinish(t, em, 1, event.StatusStopped, "")
	})
	path := LogPath(home, id, t0)
	info, _ := os.Stat(path)
	w, err := Append(path, info.Size())
	if err != nil {
		t.Fatal(err)
	}
	w.KeepSummary(st)
	em := event.NewEmitter(id, event.EmitterOptions{LastSeq: 100, Sinks: []event.Sink{w}, Now: func() time.Time { return t0.Add(time.Hour) }})
	mustEmit(t, em, event.RunResumed, 1, event.RunResumedData{FromCheckpoint: true, Iteration: 1})
	emitIteration(t, em, 2, 50)
	emitFinish(t, em, 2, event.StatusFinished, "both")
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, _ := NewIndex(home, st).Prefix(id, 1)
	want, _ := summarizeFile(path)
	if len(got) != 1 || got[0] != want || got[0].Tokens != 150 {
		t.Fatalf("summary %+v, want %+v (150 tokens)", got, want)
	}
}
