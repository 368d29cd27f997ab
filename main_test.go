package main

import (
	"path/filepath"
	"slices"
	"testing"

	"hermes/backend/desktoplink"
)

func TestLinked_OpensTheWindowOfTheHomeOnTheRun(t *testing.T) {
	home := t.TempDir()
	args, run := linked([]string{desktoplink.Run(home, "20261205-090000-11c0de")})
	if !slices.Equal(args, []string{"--home", home}) || run != "20261205-090000-11c0de" {
		t.Fatalf("linked = %q %q", args, run)
	}
	gone := desktoplink.Run(filepath.Join(home, "gone"), "r1")
	for _, in := range [][]string{nil, {"run", "--yes", "task"}, {gone}, {desktoplink.Run(home, "r1"), "--new-window"}} {
		if args, run := linked(in); !slices.Equal(args, in) || run != "" {
			t.Errorf("linked(%q) = %q %q; want the arguments as they were", in, args, run)
		}
	}
}
