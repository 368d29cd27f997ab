package update

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// fileOps are the file-system calls that replacing a running binary needs;
// tests inject failures into them.
type fileOps struct {
	rename func(oldpath, newpath string) error
	remove func(path string) error
}

var osOps = fileOps{rename: os.Rename, remove: os.Remove}

// asideMark is what the name of a binary moved aside adds to the binary's:
// hermes.exe.old-RANDOM.
const asideMark = ".old-"

// newAsidePath is a name of its own for a running binary moved aside to
// make room for its replacement, on systems that cannot replace a running
// executable. Each swap takes a new one, so a binary an earlier swap moved
// aside that still runs (a second Hermes) never stands in the way.
func newAsidePath(exe string) string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return exe + asideMark + hex.EncodeToString(b)
}

// asidePaths are the binaries moved aside from exe: this scheme's, and
// the one fixed name (and its per-process variants) of versions before it.
func asidePaths(exe string) []string {
	dir, base := filepath.Dir(exe), filepath.Base(exe)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	legacy := "." + base + ".old"
	var paths []string
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() {
			continue
		}
		if strings.HasPrefix(name, base+asideMark) || name == legacy || strings.HasPrefix(name, legacy+".") {
			paths = append(paths, filepath.Join(dir, name))
		}
	}
	return paths
}

// swapAside puts staged in exe's place by first moving exe aside, which
// Windows allows for a running executable where it refuses to overwrite or
// delete it. If the second rename fails the first is undone, so exe always
// names a working binary except in the instant between the two renames,
// which restoreAside repairs. The old binary stays at aside (a name from
// newAsidePath) until it is no longer running and a later start removes it
// (removeAside).
func swapAside(ops fileOps, staged, exe, aside string) error {
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
// and the old binary is aside, at aside when the journal says so. Else, of
// several binaries aside, the one written last is the one that had exe's
// name: each of the others had it before.
func restoreAside(ops fileOps, exe, aside string) error {
	if exists(exe) {
		return nil
	}
	if aside != "" && exists(aside) {
		if err := ops.rename(aside, exe); err != nil {
			return fmt.Errorf("move %s back: %w", aside, err)
		}
		return nil
	}
	var newest string
	var newestTime time.Time
	for _, p := range asidePaths(exe) {
		if st, err := os.Stat(p); err == nil && (newest == "" || st.ModTime().After(newestTime)) {
			newest, newestTime = p, st.ModTime()
		}
	}
	if newest == "" {
		return nil
	}
	if err := ops.rename(newest, exe); err != nil {
		return fmt.Errorf("move %s back: %w", newest, err)
	}
	return nil
}

// removeAside removes the binaries moved aside from exe. One that still
// runs cannot be removed on Windows: it stays for a later start, and that
// is not an error.
func removeAside(ops fileOps, exe string) {
	if !exists(exe) {
		return // restoreAside needs them
	}
	for _, p := range asidePaths(exe) {
		_ = ops.remove(p)
	}
}
