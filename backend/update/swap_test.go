package update

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// running stands for Windows, which refuses to remove a running binary:
// its remove fails for the paths in the set.
func running(paths ...string) fileOps {
	return fileOps{rename: os.Rename, remove: func(p string) error {
		if slices.Contains(paths, p) {
			return errors.New("access denied: the file is in use")
		}
		return os.Remove(p)
	}}
}

// The Windows swap runs on every platform here, with failures injected
// into its renames.
func TestSwapAside(t *testing.T) {
	errRename := errors.New("injected rename failure")
	tests := []struct {
		name       string
		failRename int // fail the nth rename (1-based), 0 = none
		wantErr    bool
		want       string // content at exe afterwards
	}{
		{name: "swaps", want: "new"},
		{name: "moving aside fails", failRename: 1, wantErr: true, want: "old"},
		{name: "second rename fails and is undone", failRename: 2, wantErr: true, want: "old"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			exe, staged := filepath.Join(dir, "hermes.exe"), filepath.Join(dir, ".hermes.exe.new")
			writeFile(t, exe, "old")
			writeFile(t, staged, "new")
			n := 0
			ops := fileOps{
				rename: func(a, b string) error {
					n++
					if n == tt.failRename {
						return errRename
					}
					return os.Rename(a, b)
				},
				remove: os.Remove,
			}
			aside := newAsidePath(exe)
			err := swapAside(ops, staged, exe, aside)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error: %v", err, tt.wantErr)
			}
			if got := readFile(t, exe); got != tt.want {
				t.Fatalf("exe holds %q, want %q", got, tt.want)
			}
			if !tt.wantErr && readFile(t, aside) != "old" {
				t.Fatal("the old binary is not aside")
			}
		})
	}
}

// Two updates in a row while the binary the first moved aside still runs
// (a second Hermes, say hermes serve): each swap moves the running binary
// to a name of its own, so the second is not blocked by the first, and a
// later start removes every one that no longer runs.
func TestSwapAside_SecondInstanceStillRunning(t *testing.T) {
	dir := t.TempDir()
	exe, staged := filepath.Join(dir, "hermes.exe"), filepath.Join(dir, ".hermes.exe.new")
	writeFile(t, exe, "1.0.0")

	writeFile(t, staged, "1.1.0")
	first := newAsidePath(exe)
	if err := swapAside(osOps, staged, exe, first); err != nil {
		t.Fatal(err)
	}
	// A start while 1.0.0 still runs as hermes serve leaves it alone.
	removeAside(running(first), exe)
	if readFile(t, first) != "1.0.0" {
		t.Fatal("the running binary was disturbed")
	}
	writeFile(t, staged, "1.2.0")
	second := newAsidePath(exe)
	if second == first {
		t.Fatal("two swaps took the same name")
	}
	if err := swapAside(running(first), staged, exe, second); err != nil {
		t.Fatalf("the second update was blocked by the first's running binary: %v", err)
	}
	if readFile(t, exe) != "1.2.0" || readFile(t, first) != "1.0.0" || readFile(t, second) != "1.1.0" {
		t.Fatal("the binaries are not where they should be")
	}
	// hermes serve stopped: the next start removes both.
	removeAside(osOps, exe)
	if left := asidePaths(exe); len(left) != 0 {
		t.Fatalf("left aside after the next start: %q", left)
	}
	if readFile(t, exe) != "1.2.0" {
		t.Fatal("the installed binary was touched")
	}
	for _, p := range []string{first, second} {
		if !strings.HasPrefix(filepath.Base(p), "hermes.exe.old-") {
			t.Fatalf("aside named %s, want hermes.exe.old-*", filepath.Base(p))
		}
	}
}

// The names of versions before unique ones go too.
func TestRemoveAside_Legacy(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "hermes.exe")
	writeFile(t, exe, "new")
	for _, name := range []string{".hermes.exe.old", ".hermes.exe.old.4242", "hermes.exe.old-0a1b2c", "hermes.exe.new-thing", "other.exe.old-1"} {
		writeFile(t, filepath.Join(dir, name), "x")
	}
	removeAside(osOps, exe)
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{"hermes.exe", "hermes.exe.new-thing", "other.exe.old-1"}; !slices.Equal(names, want) {
		t.Fatalf("left %q, want %q", names, want)
	}
}

func TestRestoreAside(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "hermes.exe")
	// A crash between the two renames: exe is gone, the old binary aside
	// at the name the journal gives.
	aside := newAsidePath(exe)
	writeFile(t, aside, "old")
	writeFile(t, newAsidePath(exe), "older, still running")
	if err := restoreAside(osOps, exe, aside); err != nil {
		t.Fatal(err)
	}
	if readFile(t, exe) != "old" || exists(aside) {
		t.Fatal("the old binary was not moved back")
	}
	// With exe in place, nothing moves.
	if err := restoreAside(osOps, exe, ""); err != nil || readFile(t, exe) != "old" {
		t.Fatalf("restoreAside replaced a present exe: %v", err)
	}

	// Without the journal's name (a rollback's swap), the binary written
	// last is the one that had exe's name.
	if err := os.Remove(exe); err != nil {
		t.Fatal(err)
	}
	older, newer := newAsidePath(exe), newAsidePath(exe)
	writeFile(t, older, "1.0.0")
	writeFile(t, newer, "1.1.0")
	past := time.Now().Add(-time.Hour)
	if err := os.Chtimes(older, past, past); err != nil {
		t.Fatal(err)
	}
	if err := restoreAside(osOps, exe, ""); err != nil || readFile(t, exe) != "1.1.0" {
		t.Fatalf("restored %v, want the binary written last", err)
	}
}

// A start that does not check for updates still removes what earlier
// updates moved aside, unless an update is in flight.
func TestTidy(t *testing.T) {
	dir := t.TempDir()
	exe, home := filepath.Join(dir, "hermes.exe"), filepath.Join(dir, "home")
	writeFile(t, exe, "1.1.0")
	aside := newAsidePath(exe)
	writeFile(t, aside, "1.0.0")
	u := newUpdater(t, exe, home, "", "1.1.0")
	if err := os.MkdirAll(u.dir(), 0o700); err != nil {
		t.Fatal(err)
	}
	writeFile(t, u.journalPath(), "{}")
	if err := Tidy(home, exe); err != nil || !exists(aside) {
		t.Fatalf("tidied during an update: %v", err)
	}
	if err := os.Remove(u.journalPath()); err != nil {
		t.Fatal(err)
	}
	if err := Tidy(home, exe); err != nil || exists(aside) || readFile(t, exe) != "1.1.0" {
		t.Fatalf("tidy: %v, aside left: %v", err, exists(aside))
	}
}
