package update

import (
	"errors"
	"slices"
	"sync"
	"testing"
)

func TestChecker_ReportsThenApplies(t *testing.T) {
	buildAll(t, oldBuild, newBuild)
	srv := newFeedServer(t)
	art := srv.publish(t, newBuild, testPriv, testPriv, nil)
	exe, home := install(t, oldBuild)
	u := newUpdater(t, exe, home, srv.URL+"/feed.json", "1.0.0")
	var mu sync.Mutex
	var seen []Status
	c := NewChecker(u, func(s Status) { mu.Lock(); seen = append(seen, s); mu.Unlock() })

	if err := c.Apply(t.Context()); !errors.Is(err, ErrNotReady) {
		t.Fatalf("apply before run: %v, want ErrNotReady", err)
	}
	if err := c.Run(t.Context()); err != nil {
		t.Fatal(err)
	}
	if s := c.Status(); s.State != StateReady || s.Version != "1.1.0" || s.Notes != "faster" || s.NotesZH != "更快" || s.Done != art.Size {
		t.Fatalf("after run: %+v", s)
	}
	if err := c.Apply(t.Context()); err != nil {
		t.Fatal(err)
	}
	if s := c.Status(); s.State != StateApplied || s.Installed != "1.1.0" || versionOf(t, exe) != "1.1.0" {
		t.Fatalf("after apply: %+v", s)
	}
	var states []State
	var downloading int
	for _, s := range seen {
		if len(states) == 0 || states[len(states)-1] != s.State {
			states = append(states, s.State)
		}
		if s.State == StateDownloading {
			downloading++
		}
	}
	want := []State{StateChecking, StateDownloading, StateReady, StateApplying, StateApplied}
	if !slices.Equal(states, want) {
		t.Fatalf("states %v, want %v", states, want)
	}
	if downloading < 2 || downloading > 102 {
		t.Fatalf("%d progress reports, want one per percent at most", downloading)
	}
}
