package update

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// The Windows swap runs on every platform here, with failures injected
// into its renames and removes.
func TestSwapAside(t *testing.T) {
	errRename := errors.New("injected rename failure")
	tests := []struct {
		name        string
		failRename  int  // fail the nth rename (1-based), 0 = none
		asideLocked bool // an older binary aside is still running
		wantErr     bool
		want        string // content at exe afterwards
	}{
		{name: "swaps", want: "new"},
		{name: "moving aside fails", failRename: 1, wantErr: true, want: "old"},
		{name: "second rename fails and is undone", failRename: 2, wantErr: true, want: "old"},
		{name: "older aside still running", asideLocked: true, want: "new"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			exe, staged := filepath.Join(dir, "hermes.exe"), filepath.Join(dir, ".hermes.exe.new")
			writeFile(t, exe, "old")
			writeFile(t, staged, "new")
			writeFile(t, asidePath(exe), "older")
			n := 0
			ops := fileOps{
				rename: func(a, b string) error {
					n++
					if n == tt.failRename {
						return errRename
					}
					return os.Rename(a, b)
				},
				remove: func(p string) error {
					if tt.asideLocked {
						return errors.New("access denied: in use")
					}
					return os.Remove(p)
				},
			}
			err := swapAside(ops, staged, exe)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error: %v", err, tt.wantErr)
			}
			if got := readFile(t, exe); got != tt.want {
				t.Fatalf("exe holds %q, want %q", got, tt.want)
			}
			if tt.asideLocked && readFile(t, asidePath(exe)) != "older" {
				t.Fatal("the running older binary was disturbed")
			}
		})
	}
}

func TestRestoreAside(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "hermes.exe")
	// A crash between the two renames: exe is gone, the old binary aside.
	writeFile(t, asidePath(exe), "old")
	if err := restoreAside(osOps, exe); err != nil {
		t.Fatal(err)
	}
	if readFile(t, exe) != "old" || exists(asidePath(exe)) {
		t.Fatal("the old binary was not moved back")
	}
	// With exe in place, an aside file is left for Recover to remove.
	writeFile(t, asidePath(exe), "older")
	if err := restoreAside(osOps, exe); err != nil || readFile(t, exe) != "old" {
		t.Fatalf("restoreAside replaced a present exe: %v", err)
	}
}
