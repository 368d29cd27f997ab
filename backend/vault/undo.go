package vault

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"slices"
	"strings"

	"hermes/backend/atomicfile"
	"hermes/backend/i18n"
	"hermes/backend/runlog"
)

// Undo puts back what an edit changed, from the copies kept with its run
// in home (a rename as one: every note whose links it changed, and the
// note or folder moved back). It refuses, before it changes anything, when
// a note changed since the edit or a copy is gone, so that Undo never
// loses anyone's work.
func (v *Vault) Undo(home string, c *Change) error {
	type step struct {
		n      NoteChange
		now    string // where the note is now
		before []byte
	}
	var steps []step
	for _, n := range c.Notes {
		now := n.Path
		if n.NewPath != "" {
			now = n.NewPath
		}
		b, err := v.root.ReadFile(now)
		if err != nil {
			return i18n.Wrap(errors.Join(ErrUndoRefused, err), "vault.undo_changed", now)
		}
		if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != n.AfterSHA256 {
			return i18n.Wrap(ErrUndoRefused, "vault.undo_changed", now)
		}
		s := step{n: n, now: now}
		if !n.Created {
			if s.before, _, err = runlog.ReadArtifact(home, n.BeforeRef, 0, 0); err != nil || n.BeforeRef == "" {
				return i18n.Wrap(errors.Join(ErrUndoRefused, err), "vault.undo_no_copy", n.Path, err)
			}
		}
		if n.NewPath != "" && c.Folder == nil && !strings.EqualFold(n.Path, n.NewPath) {
			if _, err := v.root.Lstat(n.Path); err == nil {
				return i18n.Wrap(ErrUndoRefused, "vault.undo_taken", n.Path)
			}
		}
		steps = append(steps, s)
	}
	if c.Folder != nil {
		if _, err := v.root.Lstat(c.Folder.From); err == nil {
			return i18n.Wrap(ErrUndoRefused, "vault.undo_taken", c.Folder.From)
		}
	}
	var touched []string
	defer func() { v.reindex(touched) }()
	for _, s := range slices.Backward(steps) {
		touched = append(touched, s.now, s.n.Path)
		var err error
		switch {
		case s.n.Created:
			err = v.root.Remove(s.now)
		default:
			err = atomicfile.WriteFileIn(v.root, s.now, s.before, 0o644, atomicfile.KeepMode())
			if err == nil && s.n.NewPath != "" && c.Folder == nil {
				err = v.root.Rename(s.now, s.n.Path)
			}
		}
		if err != nil && !(s.n.Created && errors.Is(err, fs.ErrNotExist)) {
			return i18n.Wrap(err, "vault.undo_failed", s.n.Path, err)
		}
	}
	if c.Folder != nil {
		if err := v.root.Rename(c.Folder.To, c.Folder.From); err != nil {
			return i18n.Wrap(err, "vault.undo_failed", c.Folder.To, err)
		}
	}
	return nil
}
