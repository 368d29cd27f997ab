//go:build !windows

package atomicfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestWriteFile_ModeAndUmask(t *testing.T) {
	defer syscall.Umask(syscall.Umask(0o077))
	dir := t.TempDir()
	narrowed, exact := filepath.Join(dir, "narrowed"), filepath.Join(dir, "exact")
	if err := WriteFile(narrowed, []byte("x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(exact, []byte("x"), 0o755, ExactMode()); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]os.FileMode{narrowed: 0o700, exact: 0o755} {
		if st, _ := os.Stat(path); st.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", filepath.Base(path), st.Mode().Perm(), want)
		}
	}
}
