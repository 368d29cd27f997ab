package update

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"hermes/backend/atomicfile"
)

// A macOS install is an application bundle, X.app, whose code signature
// covers every file in it: replacing Contents/MacOS/hermes alone would
// break it. So the whole bundle is replaced, in the steps of a binary: the
// new one is unpacked beside the old (the same volume), checked on a copy
// of the home, swapped in, checked in the home, and the old one is put back
// if that fails. The journal holds the hash of the new bundle's executable,
// which tells Recover which of the two bundles has the install's name.

// bundleExe is the path of exe inside bundle, such as Contents/MacOS/hermes.
func bundleExe(bundle, exe string) string {
	rel, err := filepath.Rel(bundle, exe)
	if err != nil {
		return filepath.Join("Contents", "MacOS", filepath.Base(exe))
	}
	return rel
}

// besideBundle names a hidden folder beside bundle, on its volume, so a
// rename moves it in one step: ".X.app.new" for the one being installed,
// ".X.app.old" for the one it replaces.
func besideBundle(bundle, suffix string) string {
	return filepath.Join(filepath.Dir(bundle), "."+filepath.Base(bundle)+suffix)
}

// applyBundle replaces the bundle of the running executable with the one in
// the verified zip at zipPath, under the update lock.
func (u *Updater) applyBundle(ctx context.Context, version, zipPath string) error {
	bundle := bundleOf(u.opts.Exe)
	previous, err := u.keepPreviousBundle(bundle)
	if err != nil {
		return err
	}
	j := journal{
		From: u.opts.Version, To: version, Exe: u.opts.Exe, Bundle: bundle, Previous: previous,
		Staged: besideBundle(bundle, ".new"), Aside: besideBundle(bundle, ".old"),
	}
	if err := writeJSON(u.journalPath(), j); err != nil {
		return err
	}
	if err := errors.Join(os.RemoveAll(j.Staged), os.RemoveAll(j.Aside)); err != nil {
		return u.abandon(j, err)
	}
	if err := unpackBundle(zipPath, j.Staged, bundleExe(bundle, j.Exe)); err != nil {
		return u.abandon(j, err)
	}
	sum, err := fileSHA256(j.stagedExe())
	if err != nil {
		return u.abandon(j, err)
	}
	// From here Recover can tell the new bundle from the old.
	j.ToSHA256 = sum
	if err := writeJSON(u.journalPath(), j); err != nil {
		return u.abandon(j, err)
	}
	if err := atomicfile.SyncDir(filepath.Dir(bundle)); err != nil {
		return u.abandon(j, err)
	}
	u.step(StepStaged)
	if err := u.preflight(ctx, j.stagedExe(), j.To); err != nil {
		return u.abandon(j, err)
	}
	if err := u.checkOnCopy(ctx, j); err != nil {
		return u.abandon(j, err)
	}
	u.step(StepChecked)
	if err := swapDirs(osDirOps, j.Staged, j.Bundle, j.Aside); err != nil && !bundleIsNew(j, j.Bundle) {
		return u.abandon(j, err)
	}
	u.step(StepSwapped)
	return u.finish(ctx, j)
}

// keepPreviousBundle copies the bundle about to be replaced into the cache,
// for --rollback.
func (u *Updater) keepPreviousBundle(bundle string) (string, error) {
	dir := u.previousDir()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("create %s: %w", dir, err)
	}
	dst := filepath.Join(dir, filepath.Base(bundle))
	sum, err := replaceTree(bundle, dst)
	if err != nil {
		return "", err
	}
	if err := writeJSON(filepath.Join(dir, "previous.json"), previousRecord{u.opts.Version, sum}); err != nil {
		return "", err
	}
	return dst, nil
}

// replaceTree copies the tree at src to dst, in place of what dst held,
// and returns its digest. The copy is made beside dst and renamed into
// place, so dst is never half-copied.
func replaceTree(src, dst string) (string, error) {
	tmp := dst + ".tmp"
	if err := os.RemoveAll(tmp); err != nil {
		return "", fmt.Errorf("clear %s: %w", tmp, err)
	}
	if err := copyTree(src, tmp); err != nil {
		return "", errors.Join(err, os.RemoveAll(tmp))
	}
	sum, err := treeDigest(tmp)
	if err != nil {
		return "", errors.Join(err, os.RemoveAll(tmp))
	}
	if err := os.RemoveAll(dst); err != nil {
		return "", fmt.Errorf("clear %s: %w", dst, err)
	}
	if err := atomicfile.Rename(tmp, dst); err != nil {
		return "", fmt.Errorf("rename %s: %w", tmp, err)
	}
	return sum, nil
}

// bundleIsNew says whether the bundle at dir holds the new executable.
func bundleIsNew(j journal, dir string) bool {
	if j.ToSHA256 == "" {
		return false
	}
	sum, err := fileSHA256(filepath.Join(dir, bundleExe(j.Bundle, j.Exe)))
	return err == nil && sum == j.ToSHA256
}

// oldBundle is where the old bundle waits while the new one has its name:
// aside after two renames, or still at the staged name after an exchange.
func oldBundle(j journal) (old, free string) {
	if exists(j.Aside) && !bundleIsNew(j, j.Aside) {
		return j.Aside, j.Staged
	}
	return j.Staged, j.Aside
}

// recoverBundle finishes or undoes a bundle's update that a kill
// interrupted.
func (u *Updater) recoverBundle(ctx context.Context, j journal) error {
	if !exists(j.Bundle) {
		// Killed between the two renames of a swap or of its undo: the
		// old bundle goes back.
		old, _ := oldBundle(j)
		if !exists(old) || bundleIsNew(j, old) {
			return fmt.Errorf("%s is missing and no bundle is beside it to put back: %w", j.Bundle, ErrHealth)
		}
		if err := atomicfile.Rename(old, j.Bundle); err != nil {
			return fmt.Errorf("put %s back: %w", j.Bundle, err)
		}
	}
	if !bundleIsNew(j, j.Bundle) {
		return u.abandon(j, nil) // the swap never happened, or was undone
	}
	u.removeCopies()
	return u.finish(ctx, j)
}

// undoBundle puts the old bundle back in the place of a new one that
// failed its check in the home, then closes the journal. The migrated
// files go back first: a kill before the bundles are swapped back leaves
// the new one in place, whose check Recover runs again.
func (u *Updater) undoBundle(j journal) error {
	if err := restoreBackup(u.opts.Home, j.To); err != nil {
		return err
	}
	old, free := oldBundle(j)
	if !exists(old) {
		return fmt.Errorf("restore %s: the old bundle is not at %s", j.Bundle, old)
	}
	if err := swapDirs(osDirOps, old, j.Bundle, free); err != nil {
		return fmt.Errorf("restore %s: %w", j.Bundle, err)
	}
	return u.abandon(j, nil)
}

// abandonBundle closes the journal of a bundle's update while the old
// bundle has the install's name: the new one, unpacked or swapped back
// out, goes with the copies of the home. Unless the old bundle is in place
// (a swap that failed half-way and could not move back) nothing is removed
// and the journal stays, for Recover.
func (u *Updater) abandonBundle(j journal, cause error) error {
	if !exists(j.Bundle) || bundleIsNew(j, j.Bundle) {
		return errors.Join(cause, fmt.Errorf("%s is not the bundle it replaced: run hermes update to put it right", j.Bundle))
	}
	u.removeCopies()
	return errors.Join(cause, os.RemoveAll(j.Staged), os.RemoveAll(j.Aside), removeIfExists(u.journalPath()))
}

// tidyBundle repairs a kill in the middle of a swap no journal covers (a
// rollback's): the bundle moved aside goes back. Then it removes the
// bundles beside the install that updates are done with.
func tidyBundle(ops dirOps, bundle string) error {
	staged, aside := besideBundle(bundle, ".new"), besideBundle(bundle, ".old")
	if !exists(bundle) && exists(aside) {
		if err := ops.rename(aside, bundle); err != nil {
			return fmt.Errorf("put %s back: %w", bundle, err)
		}
	}
	if !exists(bundle) {
		return nil
	}
	return errors.Join(os.RemoveAll(staged), os.RemoveAll(aside))
}

// rollbackBundle swaps the bundle with the one kept by the last update and
// keeps the one it replaces in turn, as Rollback does for a binary.
func (u *Updater) rollbackBundle(ctx context.Context, bundle string, prev previousRecord) (string, error) {
	kept := filepath.Join(u.previousDir(), filepath.Base(bundle))
	if sum, err := treeDigest(kept); err != nil || sum != prev.SHA256 {
		return "", fmt.Errorf("%s is missing or damaged: %w", kept, ErrNoPrevious)
	}
	if err := u.preflight(ctx, filepath.Join(kept, bundleExe(bundle, u.opts.Exe)), prev.Version); err != nil {
		return "", err
	}
	next := kept + ".next"
	nextSum, err := replaceTree(bundle, next)
	if err != nil {
		return "", err
	}
	staged, aside := besideBundle(bundle, ".new"), besideBundle(bundle, ".old")
	if err := errors.Join(os.RemoveAll(staged), os.RemoveAll(aside)); err != nil {
		return "", err
	}
	if err := copyTree(kept, staged); err != nil {
		return "", errors.Join(err, os.RemoveAll(staged))
	}
	if err := swapDirs(osDirOps, staged, bundle, aside); err != nil {
		return "", errors.Join(err, os.RemoveAll(staged))
	}
	if err := errors.Join(os.RemoveAll(staged), os.RemoveAll(aside)); err != nil {
		return "", err
	}
	if err := restoreBackup(u.opts.Home, u.opts.Version); err != nil {
		return "", err
	}
	if err := os.RemoveAll(kept); err != nil {
		return "", fmt.Errorf("clear %s: %w", kept, err)
	}
	if err := atomicfile.Rename(next, kept); err != nil {
		return "", fmt.Errorf("rename %s: %w", next, err)
	}
	if err := writeJSON(filepath.Join(u.previousDir(), "previous.json"), previousRecord{u.opts.Version, nextSum}); err != nil {
		return "", err
	}
	u.opts.Version = prev.Version
	return prev.Version, nil
}
