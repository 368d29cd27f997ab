package store

import (
	"errors"
	"testing"
)

// OnCheckpoint tells of a run once its checkpoint is committed (what is
// read then is that checkpoint), and not of a checkpoint that failed.
func TestOnCheckpoint_ToldOnceDurable(t *testing.T) {
	s := openTemp(t)
	told := make(chan string, 10)
	s.OnCheckpoint(func(id string) { told <- id })
	if err := s.QueueCheckpoint(Checkpoint{RunID: "gap", State: []byte("x"), From: 3}).Wait(); !errors.Is(err, ErrCheckpointGap) {
		t.Fatalf("a checkpoint with a gap saved: %v", err)
	}
	if err := s.QueueCheckpoint(Checkpoint{RunID: "run", State: []byte("state 1"), From: 0, Turns: [][]byte{[]byte("t0")}}).Wait(); err != nil {
		t.Fatal(err)
	}
	if id := <-told; id != "run" {
		t.Fatalf("told of %q, want run (the failed checkpoint is not told of)", id)
	}
	state, turns, err := s.LoadCheckpoint("run")
	if err != nil || string(state) != "state 1" || len(turns) != 1 {
		t.Fatalf("when told, the store holds %q and %d turns (%v)", state, len(turns), err)
	}
	select {
	case id := <-told:
		t.Fatalf("told of %q too", id)
	default:
	}
}
