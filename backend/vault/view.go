package vault

import (
	"errors"
	"path/filepath"
	"strings"

	"hermes/backend/i18n"
)

// NoteView is a note as a person reads it beside the run that read it:
// its text decoded, the notes that link to it, and what Obsidian needs to
// open it.
type NoteView struct {
	Path string
	Text string
	// Vault is the vault's folder name, which obsidian://open?vault= names.
	Vault     string
	Backlinks []Backlink
}

// View reads the note name names (a path, a name, an alias or a wikilink
// as written, resolved as seen from the note at from, "" for none), through
// the same confinement as the tools: nothing outside the vault, nor in a
// folder never read, is ever opened. A name that finds no note is an
// i18n.Error that says so.
func (v *Vault) View(name, from string) (NoteView, error) {
	p := ""
	target, _, _ := strings.Cut(strings.TrimSpace(name), "#")
	if from != "" && target != "" {
		if found, ok := v.Resolve(target, from); ok {
			p = found
		}
	}
	if p == "" {
		var err error
		if p, _, err = v.findNote(name); err != nil {
			return NoteView{}, i18n.Wrap(errors.Join(ErrNoNote, err), "vault.no_note", name)
		}
	}
	t, _, err := v.readText(p)
	if err != nil {
		return NoteView{}, i18n.Wrap(errors.Join(ErrNoNote, err), "vault.no_note", name)
	}
	return NoteView{Path: p, Text: t.Text, Vault: filepath.Base(v.dir), Backlinks: v.Backlinks(p)}, nil
}
