package update

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// A CheckFile is a file of the home directory that a health check reads.
// A new binary passes its whole health check on a copy of the home made of
// these files before it takes the old binary's name, so a release that
// crashes, hangs or is killed during its check never replaces a working
// binary, and the home is not touched until it has passed.
type CheckFile struct {
	Name string // relative to the home, with forward slashes
	// Copy makes a consistent copy of src at dst, such as a database read
	// in a transaction; nil copies the bytes. It may leave dst absent (the
	// file is in use and cannot be read whole): the check then goes without.
	Copy func(src, dst string) error
}

var (
	checkFilesMu sync.Mutex
	checkFiles   []CheckFile
)

// RegisterCheckFile adds f to the files copied for a health check.
// Packages register theirs in init.
func RegisterCheckFile(f CheckFile) {
	checkFilesMu.Lock()
	defer checkFilesMu.Unlock()
	checkFiles = append(checkFiles, f)
}

// checkOnCopy runs the whole health check of the staged binary against a
// fresh copy of the home, which is removed afterwards.
func (u *Updater) checkOnCopy(ctx context.Context, j journal) error {
	dir, err := os.MkdirTemp(u.dir(), "check-")
	if err != nil {
		return fmt.Errorf("create a copy of %s: %w", u.opts.Home, err)
	}
	err = u.copyHome(dir)
	if err == nil {
		err = u.healthCheck(ctx, j.stagedExe(), j.To, dir)
	}
	// A copy that cannot go now (a file of it still held: an antivirus on
	// Windows, Wine) never decides the update: a later tidy removes it.
	_ = removeAll(dir)
	return err
}

// removeAll is os.RemoveAll; the tests make it fail as Windows may.
var removeAll = os.RemoveAll

// copyHome copies into dir the registered check files, the files the
// migrations of this version may change, and the record of the migrations
// done, so the check migrates the copy as it would migrate the home.
func (u *Updater) copyHome(dir string) error {
	checkFilesMu.Lock()
	files := append([]CheckFile(nil), checkFiles...)
	checkFilesMu.Unlock()
	migrationsMu.Lock()
	for _, m := range migrations {
		if m.Files == nil {
			continue
		}
		for _, path := range m.Files(u.opts.Home) {
			if rel, err := filepath.Rel(u.opts.Home, path); err == nil && filepath.IsLocal(rel) {
				files = append(files, CheckFile{Name: filepath.ToSlash(rel)})
			}
		}
	}
	migrationsMu.Unlock()
	files = append(files, CheckFile{Name: "updates/migrated.json"})
	for _, f := range files {
		src := filepath.Join(u.opts.Home, filepath.FromSlash(f.Name))
		dst := filepath.Join(dir, filepath.FromSlash(f.Name))
		st, err := os.Stat(src)
		switch {
		case errors.Is(err, fs.ErrNotExist), exists(dst):
			continue
		case err != nil:
			return fmt.Errorf("copy %s for the health check: %w", src, err)
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
			return fmt.Errorf("create %s: %w", filepath.Dir(dst), err)
		}
		if f.Copy != nil {
			err = f.Copy(src, dst)
		} else {
			err = copyFile(src, dst, st.Mode().Perm(), false)
		}
		if err != nil {
			return fmt.Errorf("copy %s for the health check: %w", src, err)
		}
	}
	return nil
}

// removeCopies removes the copies of the home left by a check that a kill
// interrupted, those it can: one still held goes at a later tidy, and
// never stops an update.
func (u *Updater) removeCopies() {
	dirs, _ := filepath.Glob(filepath.Join(u.dir(), "check-*"))
	for _, d := range dirs {
		_ = removeAll(d)
	}
}
