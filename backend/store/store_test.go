package store

import (
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func openTemp(t testing.TB) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "hermes.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestCheckpoint_AppendsTurnsAcrossSaves(t *testing.T) {
	s := openTemp(t)
	saves := []struct {
		state    string
		newTurns []string
	}{
		{`{"iteration":1}`, []string{"system", "user"}},
		{`{"iteration":2}`, []string{"assistant 1", "tool 1"}},
		{`{"iteration":3}`, nil},
		{`{"iteration":4}`, []string{"assistant 2"}},
	}
	var want [][]byte
	for i, sv := range saves {
		var nt [][]byte
		for _, t := range sv.newTurns {
			nt = append(nt, []byte(t))
		}
		if err := s.SaveCheckpoint("run-a", []byte(sv.state), nt); err != nil {
			t.Fatal(err)
		}
		want = append(want, nt...)
		state, turns, err := s.LoadCheckpoint("run-a")
		if err != nil {
			t.Fatal(err)
		}
		if string(state) != sv.state || !reflect.DeepEqual(turns, want) {
			t.Fatalf("after save %d: state %s turns %q; want %s %q", i+1, state, turns, sv.state, want)
		}
	}
	// Another run's checkpoint is its own.
	if err := s.SaveCheckpoint("run-b", []byte("b"), [][]byte{[]byte("b1")}); err != nil {
		t.Fatal(err)
	}
	if _, turns, _ := s.LoadCheckpoint("run-a"); len(turns) != len(want) {
		t.Fatalf("run-a has %d turns after run-b saved, want %d", len(turns), len(want))
	}
}

func TestCheckpoint_SurvivesReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hermes.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SaveCheckpoint("r", []byte("state"), [][]byte{[]byte("t0"), []byte("t1")}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.SaveCheckpoint("r", []byte("state 2"), [][]byte{[]byte("t2")}); err != nil {
		t.Fatal(err)
	}
	state, turns, err := s.LoadCheckpoint("r")
	if err != nil || string(state) != "state 2" || fmt.Sprintf("%s", turns) != "[t0 t1 t2]" {
		t.Fatalf("after reopen: %s %s %v", state, turns, err)
	}
}

func TestCheckpoint_NoneAndDelete(t *testing.T) {
	s := openTemp(t)
	if _, _, err := s.LoadCheckpoint("missing"); !errors.Is(err, ErrNoCheckpoint) {
		t.Fatalf("load of a run without checkpoint: %v, want ErrNoCheckpoint", err)
	}
	if err := s.SaveCheckpoint("r", []byte("x"), [][]byte{[]byte("t")}); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteCheckpoint("r"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.LoadCheckpoint("r"); !errors.Is(err, ErrNoCheckpoint) {
		t.Fatalf("load after delete: %v, want ErrNoCheckpoint", err)
	}
	if err := s.DeleteCheckpoint("r"); err != nil {
		t.Fatalf("deleting twice: %v", err)
	}
	// A deleted run starts again from turn 0.
	if err := s.SaveCheckpoint("r", []byte("y"), [][]byte{[]byte("new")}); err != nil {
		t.Fatal(err)
	}
	if _, turns, _ := s.LoadCheckpoint("r"); len(turns) != 1 || string(turns[0]) != "new" {
		t.Fatalf("turns after delete and save: %q", turns)
	}
}

// bbolt's flock conflicts between two opens of one file even within one
// process, so a second Open stands for a second Hermes process.
func TestOpen_LockedByAnother(t *testing.T) {
	old := lockTimeout
	lockTimeout = 100 * time.Millisecond
	t.Cleanup(func() { lockTimeout = old })

	s := openTemp(t)
	_, err := Open(s.Path())
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("second Open: %v, want ErrLocked", err)
	}
	if !strings.Contains(err.Error(), s.Path()) || !strings.Contains(err.Error(), "another Hermes process") {
		t.Fatalf("error %q does not name the file and the cause", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(s.Path())
	if err != nil {
		t.Fatalf("Open after the holder closed: %v", err)
	}
	s2.Close()
}

// BenchmarkSaveCheckpoint saves one iteration's checkpoint (a 2 KB state and
// two new turns) on a run that already has 1,000 turns: synced, waiting for
// each save, and queued, as the loop does, where the caller waits for
// nothing and the writer commits what piled up while it synced.
func BenchmarkSaveCheckpoint(b *testing.B) {
	for _, queue := range []bool{false, true} {
		b.Run(fmt.Sprintf("queued=%v", queue), func(b *testing.B) {
			s := openTemp(b)
			state := []byte(strings.Repeat("s", 2048))
			turn := []byte(`{"role":"tool","tool_call_id":"call_1","content":"` + strings.Repeat("x", 1500) + `"}`)
			var first [][]byte
			for range 1000 {
				first = append(first, turn)
			}
			if err := s.SaveCheckpoint("run", state, first); err != nil {
				b.Fatal(err)
			}
			from := len(first)
			var last *Saving
			for b.Loop() {
				if !queue {
					if err := s.SaveCheckpoint("run", state, [][]byte{turn, turn}); err != nil {
						b.Fatal(err)
					}
					continue
				}
				last = s.QueueCheckpoint(Checkpoint{RunID: "run", State: state, From: from, Turns: [][]byte{turn, turn}})
				from += 2
			}
			if last != nil {
				if err := last.Wait(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
