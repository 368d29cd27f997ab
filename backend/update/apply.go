package update

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"hermes/backend/atomicfile"
)

// journal is written before the install is touched and removed once the new
// binary is confirmed healthy or the old one is back; while it exists an
// update is in flight, and Recover finishes or undoes it.
type journal struct {
	From string `json:"from"`
	To   string `json:"to"`
	// ToSHA256 is the new binary's hash, which tells whether it has taken
	// the old one's place; a bundle's is set once it is unpacked.
	ToSHA256 string `json:"to_sha256"`
	Exe      string `json:"exe"`
	Staged   string `json:"staged"`   // the new binary, or bundle, beside the old one
	Previous string `json:"previous"` // the copy of the binary (or bundle) being replaced
	// Aside is where the old binary goes when it cannot be replaced in
	// place (Windows), or where the old bundle waits until the new one is
	// healthy.
	Aside string `json:"aside,omitempty"`
	// Bundle is the .app replaced whole; "" for a binary.
	Bundle string `json:"bundle,omitempty"`
}

// stagedExe is the new binary before it takes the old one's place: the
// staged file, or the executable inside the staged bundle.
func (j journal) stagedExe() string {
	if j.Bundle == "" {
		return j.Staged
	}
	return filepath.Join(j.Staged, bundleExe(j.Bundle, j.Exe))
}

// previousRecord describes the binary kept for rollback.
type previousRecord struct {
	Version string `json:"version"`
	SHA256  string `json:"sha256"`
}

// Apply replaces the binary with the verified artefact at path: it keeps
// the current binary for rollback, writes the new one beside it and fsyncs
// it, and runs its whole health check on a copy of the home. Only a binary
// that passed takes the old one's name (a rename, then an fsync of the
// directory); its health check then runs in the home itself, migrating it.
// If a check fails the error wraps ErrHealth: before the rename nothing
// was changed, after it the old binary and the files the new version's
// migrations changed are put back. A bundle is replaced whole in the same
// steps (applyBundle); a package install is never touched (ErrManaged).
func (u *Updater) Apply(ctx context.Context, rel Release, path string) error {
	if u.Form() == FormPackage {
		return fmt.Errorf("%s: %w", u.opts.Exe, ErrManaged)
	}
	art, err := u.artefact(rel)
	if err != nil {
		return err
	}
	unlock, err := u.lock()
	if err != nil {
		return err
	}
	defer unlock()
	if err := u.recover(ctx); err != nil {
		return err
	}
	if rel.Version == u.opts.Version {
		return nil // Recover has just finished installing it
	}
	// The cache may have changed since Download verified it.
	if err := u.verify(path, art, rel.Version); err != nil {
		return errors.Join(err, os.RemoveAll(filepath.Dir(path)))
	}
	if u.Form() == FormBundle {
		return u.applyBundle(ctx, rel.Version, path)
	}
	previous, err := u.keepPrevious()
	if err != nil {
		return err
	}
	j := journal{
		From: u.opts.Version, To: rel.Version, ToSHA256: strings.ToLower(art.SHA256),
		Exe: u.opts.Exe, Staged: u.stagedPath(), Previous: previous, Aside: newAsidePath(u.opts.Exe),
	}
	if err := writeJSON(u.journalPath(), j); err != nil {
		return err
	}
	if err := copyFileSync(path, j.Staged, 0o755); err != nil {
		return u.abandon(j, err)
	}
	if err := atomicfile.SyncDir(filepath.Dir(j.Exe)); err != nil {
		return u.abandon(j, err)
	}
	u.step(StepStaged)
	if err := u.preflight(ctx, j.Staged, j.To); err != nil {
		return u.abandon(j, err)
	}
	if err := u.checkOnCopy(ctx, j); err != nil {
		return u.abandon(j, err)
	}
	u.step(StepChecked)
	if err := replace(j.Staged, j.Exe, j.Aside); err != nil {
		return u.abandon(j, err)
	}
	u.step(StepSwapped)
	return u.finish(ctx, j)
}

// keepPrevious copies the binary about to be replaced into the cache, for
// --rollback and for the automatic restore.
func (u *Updater) keepPrevious() (string, error) {
	dir := u.previousDir()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("create %s: %w", dir, err)
	}
	dst := filepath.Join(dir, u.binaryName())
	h := sha256.New()
	err := atomicfile.Write(dst, 0o755, func(w io.Writer) error {
		return copyFrom(u.opts.Exe, io.MultiWriter(w, h))
	}, atomicfile.ExactMode())
	if err != nil {
		return "", err
	}
	sum := hex.EncodeToString(h.Sum(nil))
	if err := writeJSON(filepath.Join(dir, "previous.json"), previousRecord{u.opts.Version, sum}); err != nil {
		return "", err
	}
	return dst, nil
}

// finish health-checks the new binary in place, which runs its migrations
// in the home, then commits the update by removing the journal, or undoes
// it. The binary has passed the same check on a copy of the home, so a kill
// here leaves a working binary, and the next Recover finishes.
func (u *Updater) finish(ctx context.Context, j journal) error {
	if err := u.healthCheck(ctx, j.Exe, j.To, u.opts.Home); err != nil {
		if uErr := u.undo(j); uErr != nil {
			return errors.Join(err, uErr)
		}
		u.step(StepRolledBack)
		return err
	}
	if err := removeIfExists(u.journalPath()); err != nil {
		return err
	}
	if err := atomicfile.SyncDir(u.dir()); err != nil {
		return err
	}
	if j.Bundle != "" {
		// The update is done: the old bundle is kept in the cache for
		// rollback, and one left here by a failure goes at the next start.
		_ = os.RemoveAll(j.Aside)
		_ = os.RemoveAll(j.Staged)
	}
	if j.Exe == u.opts.Exe {
		u.opts.Version = j.To // the installed version is now the new one
	}
	u.step(StepHealthy)
	return nil
}

// undo puts the previous binary back in place and the files that j.To's
// migrations changed, then closes the journal.
func (u *Updater) undo(j journal) error {
	if j.Bundle != "" {
		return u.undoBundle(j)
	}
	if err := copyFileSync(j.Previous, j.Staged, 0o755); err != nil {
		return fmt.Errorf("restore %s: %w", j.Exe, err)
	}
	if err := replace(j.Staged, j.Exe, newAsidePath(j.Exe)); err != nil {
		return fmt.Errorf("restore %s: %w", j.Exe, err)
	}
	if err := restoreBackup(u.opts.Home, j.To); err != nil {
		return err
	}
	return removeIfExists(u.journalPath())
}

// abandon closes the journal of an update that never reached the rename:
// the old binary is still in place, only the staged copy and the copies of
// the home go.
func (u *Updater) abandon(j journal, cause error) error {
	if j.Bundle != "" {
		return u.abandonBundle(j, cause)
	}
	u.removeCopies()
	return errors.Join(cause, removeIfExists(j.Staged), removeIfExists(u.journalPath()))
}

// Recover finishes or undoes an update that a crash or a kill interrupted.
// Call it at start; it is quick when there is nothing to do. If the new
// binary was already in place, its health check decides: it stays, or the
// previous binary is restored and the error wraps ErrHealth.
func (u *Updater) Recover(ctx context.Context) error {
	unlock, err := u.lock()
	if err != nil {
		return err
	}
	defer unlock()
	return u.recover(ctx)
}

func (u *Updater) recover(ctx context.Context) error {
	var j journal
	if err := readJSON(u.journalPath(), &j); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return u.tidy()
		}
		return err
	}
	if j.Bundle != "" {
		return u.recoverBundle(ctx, j)
	}
	if err := restoreAside(osOps, j.Exe, j.Aside); err != nil {
		return err
	}
	sum, err := fileSHA256(j.Exe)
	if err != nil {
		return err
	}
	if sum != j.ToSHA256 {
		return u.abandon(j, nil) // the rename never happened
	}
	u.removeCopies()
	return u.finish(ctx, j)
}

// tidy removes what updates that are over left beside the install: the
// binaries moved aside once they no longer run (removing one that still
// runs fails, and that is fine), a bundle's old or unfinished copy, and
// copies of the home.
func (u *Updater) tidy() error {
	if err := restoreAside(osOps, u.opts.Exe, ""); err != nil {
		return err
	}
	removeAside(osOps, u.opts.Exe)
	if bundle := bundleOf(u.opts.Exe); bundle != "" {
		if err := tidyBundle(osDirOps, bundle); err != nil {
			return err
		}
	}
	u.removeCopies()
	return nil
}

// Tidy removes what earlier updates left beside the install at exe ("" is
// the running binary): on Windows the binaries moved aside, once they no
// longer run. A process that does not call Recover at start (it checks for
// updates only when asked) calls Tidy instead. It leaves an update in
// flight, or one another process is making, alone.
func Tidy(home, exe string) error {
	exe, _, err := resolveExe(exe)
	if err != nil {
		return err
	}
	u := &Updater{opts: Options{Home: home, Exe: exe}}
	if !exists(u.dir()) {
		return nil // never updated: nothing to tidy, and nothing is created
	}
	unlock, err := u.lock()
	if err != nil {
		if errors.Is(err, ErrBusy) {
			return nil
		}
		return err
	}
	defer unlock()
	if exists(u.journalPath()) {
		return nil // Recover's to finish
	}
	return u.tidy()
}

// Installed is the version of the binary in place: the running version,
// or the one Recover found and confirmed.
func (u *Updater) Installed() string { return u.opts.Version }

// Rollback swaps the binary with the one kept by the last update, restores
// the files the current version's migrations changed, and returns the
// version now installed. The binary it replaces is kept in turn, so a second
// rollback goes forward again.
func (u *Updater) Rollback(ctx context.Context) (string, error) {
	if u.Form() == FormPackage {
		return "", fmt.Errorf("%s: %w", u.opts.Exe, ErrManaged)
	}
	unlock, err := u.lock()
	if err != nil {
		return "", err
	}
	defer unlock()
	if err := u.recover(ctx); err != nil {
		return "", err
	}
	dir := u.previousDir()
	var prev previousRecord
	if err := readJSON(filepath.Join(dir, "previous.json"), &prev); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", ErrNoPrevious
		}
		return "", err
	}
	if bundle := bundleOf(u.opts.Exe); u.Form() == FormBundle {
		return u.rollbackBundle(ctx, bundle, prev)
	}
	kept := filepath.Join(dir, u.binaryName())
	if sum, err := fileSHA256(kept); err != nil || sum != prev.SHA256 {
		return "", fmt.Errorf("%s is missing or damaged: %w", kept, ErrNoPrevious)
	}
	if err := u.preflight(ctx, kept, prev.Version); err != nil {
		return "", err
	}
	next := kept + ".next"
	if err := copyFileSync(u.opts.Exe, next, 0o755); err != nil {
		return "", err
	}
	nextSum, err := fileSHA256(next)
	if err != nil {
		return "", err
	}
	staged := u.stagedPath()
	if err := copyFileSync(kept, staged, 0o755); err != nil {
		return "", errors.Join(err, removeIfExists(staged))
	}
	if err := replace(staged, u.opts.Exe, newAsidePath(u.opts.Exe)); err != nil {
		return "", errors.Join(err, removeIfExists(staged))
	}
	if err := restoreBackup(u.opts.Home, u.opts.Version); err != nil {
		return "", err
	}
	if err := atomicfile.Rename(next, kept); err != nil {
		return "", fmt.Errorf("rename %s: %w", next, err)
	}
	if err := writeJSON(filepath.Join(dir, "previous.json"), previousRecord{u.opts.Version, nextSum}); err != nil {
		return "", err
	}
	u.opts.Version = prev.Version
	return prev.Version, nil
}

// Clean removes every downloaded version from the cache and returns how
// many bytes it freed. The binary kept for rollback and the migration
// backup stay.
func (u *Updater) Clean() (int64, error) {
	unlock, err := u.lock()
	if err != nil {
		return 0, err
	}
	defer unlock()
	entries, err := os.ReadDir(u.dir())
	if err != nil {
		return 0, fmt.Errorf("read %s: %w", u.dir(), err)
	}
	var freed int64
	for _, e := range entries {
		if _, err := parseVersion(e.Name()); err != nil || !e.IsDir() {
			continue
		}
		path := filepath.Join(u.dir(), e.Name())
		freed += dirSize(path)
		if err := os.RemoveAll(path); err != nil {
			return freed, fmt.Errorf("remove %s: %w", path, err)
		}
	}
	return freed, nil
}

func dirSize(dir string) int64 {
	var n int64
	// A size is for the user's information: what cannot be read counts nothing.
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}
