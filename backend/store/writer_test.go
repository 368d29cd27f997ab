package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// The store holds what a user cannot redo, so no commit is left unsynced.
func TestOpen_SyncsEveryCommit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hermes.db")
	for name, open := range map[string]func() (*Store, error){
		"Open":       func() (*Store, error) { return Open(path) },
		"OpenWithin": func() (*Store, error) { return OpenWithin(path, time.Second) },
	} {
		s, err := open()
		if err != nil {
			t.Fatal(err)
		}
		if s.db.NoSync || s.db.NoGrowSync {
			t.Errorf("%s: NoSync %v, NoGrowSync %v: commits are not synced", name, s.db.NoSync, s.db.NoGrowSync)
		}
		s.Close()
	}
}

// A copy of the file taken as soon as a queued checkpoint is durable, as a
// power cut would leave it, reads back whole.
func TestQueueCheckpoint_DurableCopyReadsBackWhole(t *testing.T) {
	s := openTemp(t)
	var want [][]byte
	var last *Saving
	for i := range 20 {
		turns := [][]byte{fmt.Appendf(nil, "turn %d", 2*i), fmt.Appendf(nil, "turn %d", 2*i+1)}
		want = append(want, turns...)
		last = s.QueueCheckpoint(Checkpoint{RunID: "run", State: fmt.Appendf(nil, "state %d", i), From: 2 * i, Turns: turns})
	}
	if err := last.Wait(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(t.TempDir(), "hermes.db")
	if err := os.WriteFile(cut, data, 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Open(cut)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	state, turns, err := c.LoadCheckpoint("run")
	if err != nil {
		t.Fatal(err)
	}
	if string(state) != "state 19" || !reflect.DeepEqual(turns, want) {
		t.Errorf("the copy holds %s and %d turns, want state 19 and %d", state, len(turns), len(want))
	}
}

// Before (the run log's fsync) runs before the commit of the checkpoint
// that points into the log, and a Before that fails fails the save.
func TestQueueCheckpoint_BeforeRunsBeforeCommit(t *testing.T) {
	s := openTemp(t)
	var committedBefore bool
	p := s.QueueCheckpoint(Checkpoint{RunID: "run", State: []byte("s"), Turns: [][]byte{[]byte("t")}, Before: func() error {
		_, _, err := s.LoadCheckpoint("run")
		committedBefore = !errors.Is(err, ErrNoCheckpoint)
		return nil
	}})
	if err := p.Wait(); err != nil {
		t.Fatal(err)
	}
	if committedBefore {
		t.Error("the checkpoint was committed before Before ran")
	}

	syncFailed := errors.New("sync failed")
	p = s.QueueCheckpoint(Checkpoint{RunID: "run", State: []byte("s2"), From: 1, Before: func() error { return syncFailed }})
	if err := p.Wait(); !errors.Is(err, syncFailed) {
		t.Errorf("Wait = %v, want the Before's error", err)
	}
	if state, _, _ := s.LoadCheckpoint("run"); string(state) != "s" {
		t.Errorf("state %s was saved though its log was not synced", state)
	}
}

// A checkpoint whose turns would leave a gap fails, alone: another run's
// checkpoint committed with it is saved.
func TestQueueCheckpoint_GapFailsAlone(t *testing.T) {
	s := openTemp(t)
	// The writer is held in a first commit, so both land in the next batch.
	entered, release := make(chan struct{}), make(chan struct{})
	held := s.QueueCheckpoint(Checkpoint{RunID: "c", Before: func() error { close(entered); <-release; return nil }})
	<-entered
	gap := s.QueueCheckpoint(Checkpoint{RunID: "a", State: []byte("a"), From: 3, Turns: [][]byte{[]byte("a3")}})
	ok := s.QueueCheckpoint(Checkpoint{RunID: "b", State: []byte("b"), Turns: [][]byte{[]byte("b0")}})
	close(release)
	if err := held.Wait(); err != nil {
		t.Fatal(err)
	}
	if err := gap.Wait(); !errors.Is(err, ErrCheckpointGap) {
		t.Errorf("gap: %v, want ErrCheckpointGap", err)
	}
	if err := ok.Wait(); err != nil {
		t.Errorf("the other run's checkpoint failed with it: %v", err)
	}
	if _, _, err := s.LoadCheckpoint("a"); !errors.Is(err, ErrNoCheckpoint) {
		t.Errorf("run a: %v, want no checkpoint", err)
	}
}

// Close commits what is queued; a checkpoint queued after Close fails at once.
func TestQueueCheckpoint_CloseCommitsQueued(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "hermes.db"))
	if err != nil {
		t.Fatal(err)
	}
	var saves []*Saving
	for i := range 10 {
		saves = append(saves, s.QueueCheckpoint(Checkpoint{RunID: "run", State: []byte("s"), From: i, Turns: [][]byte{[]byte("t")}}))
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for i, p := range saves {
		if err := p.Failed(); err != nil {
			t.Errorf("save %d: %v", i, err)
		}
		select {
		case <-p.done:
		default:
			t.Errorf("save %d still pending after Close", i)
		}
	}
	if err := s.QueueCheckpoint(Checkpoint{RunID: "run", From: 10}).Failed(); err == nil {
		t.Error("a checkpoint queued on a closed store did not fail")
	}
	s2, err := Open(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if _, turns, err := s2.LoadCheckpoint("run"); err != nil || len(turns) != 10 {
		t.Errorf("after Close: %d turns, %v; want 10", len(turns), err)
	}
}

// A checkpoint's summary is kept in the checkpoint's own commit: an
// iteration costs one synced commit of hermes.db, not two.
func TestQueueCheckpoint_SummaryInTheSameCommit(t *testing.T) {
	s := openTemp(t)
	before, err := s.Commits()
	if err != nil {
		t.Fatal(err)
	}
	started := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	synced := false
	for i := range 3 {
		p := s.QueueCheckpoint(Checkpoint{
			RunID: "run", State: fmt.Appendf(nil, "state %d", i), From: i, Turns: [][]byte{[]byte("turn")},
			Before: func() error { synced = true; return nil },
			Summary: func() *RunSummary {
				if !synced {
					t.Error("the summary was taken before the log was synced")
				}
				return &RunSummary{RunID: "run", Started: started, Data: fmt.Appendf(nil, `{"iterations":%d}`, i+1)}
			},
		})
		if err := p.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	after, err := s.Commits()
	if err != nil {
		t.Fatal(err)
	}
	if after-before != 3 {
		t.Errorf("3 checkpoints with their summaries took %d commits, want 3", after-before)
	}
	var got []string
	if _, err := s.RunSummaries("", func(id string, data []byte) bool { got = append(got, id+" "+string(data)); return true }); err != nil {
		t.Fatal(err)
	}
	if want := []string{`run {"iterations":3}`}; !reflect.DeepEqual(got, want) {
		t.Errorf("summaries %q, want %q", got, want)
	}
}
