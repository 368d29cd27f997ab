package update

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// fileOps are the two file-system calls that replacing a running binary
// needs; tests inject failures into them.
type fileOps struct {
	rename func(oldpath, newpath string) error
	remove func(path string) error
}

var osOps = fileOps{rename: os.Rename, remove: os.Remove}

// asidePath is where a running binary is moved to make room for its
// replacement on systems that cannot replace a running executable.
func asidePath(exe string) string {
	return filepath.Join(filepath.Dir(exe), "."+filepath.Base(exe)+".old")
}

// swapAside puts staged in exe's place by first moving exe aside, which
// Windows allows for a running executable where it refuses to overwrite or
// delete it. If the second rename fails the first is undone, so exe always
// names a working binary except in the instant between the two renames,
// which Recover repairs. The old binary stays aside until it is no longer
// running and the next Recover removes it.
func swapAside(ops fileOps, staged, exe string) error {
	aside := asidePath(exe)
	if err := ops.remove(aside); err != nil && !errors.Is(err, os.ErrNotExist) {
		// A binary from an earlier swap is still running; keep it and leave
		// this one beside it under a name of its own.
		aside = fmt.Sprintf("%s.%d", aside, os.Getpid())
	}
	if err := ops.rename(exe, aside); err != nil {
		return fmt.Errorf("move %s aside: %w", exe, err)
	}
	if err := ops.rename(staged, exe); err != nil {
		if back := ops.rename(aside, exe); back != nil {
			return fmt.Errorf("rename %s to %s: %w (and moving the old binary back failed: %w)", staged, exe, err, back)
		}
		return fmt.Errorf("rename %s to %s: %w", staged, exe, err)
	}
	return nil
}

// restoreAside repairs a crash between swapAside's two renames: exe is gone
// and the old binary is aside.
func restoreAside(ops fileOps, exe string) error {
	if exists(exe) || !exists(asidePath(exe)) {
		return nil
	}
	if err := ops.rename(asidePath(exe), exe); err != nil {
		return fmt.Errorf("move %s back: %w", asidePath(exe), err)
	}
	return nil
}
