package runner

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"hermes/backend/api"
	"hermes/backend/i18n"
	"hermes/backend/runlog"
	"hermes/backend/vault"
)

// A vault edit of a run keeps, with the run's artifacts, the previous bytes
// of every note it changed (CALL.before) and what it changed
// (CALL.change.json). Its undo is kept beside them as CALL.undone, the
// time it was undone: the run's log is the run's own, written by its
// emitter alone and never edited, so what happens to a run after it (a
// title, an undo) is kept beside it.

// VaultEdit says what the vault edit of call callID of run id changed, and
// whether it was undone.
func (m *Manager) VaultEdit(id, callID string) (api.VaultEdit, error) {
	base, err := m.editBase(id, callID)
	if err != nil {
		return api.VaultEdit{}, err
	}
	return readEdit(m.home, base, callID)
}

// UndoVaultEdit puts back what the vault edit of call callID of run id
// changed (vault.Undo: a rename as one), and keeps that it was undone. It
// is refused, changing nothing, when a note changed since the edit or the
// edit was undone already.
func (m *Manager) UndoVaultEdit(id, callID string) (api.VaultEdit, error) {
	if m.isSample(id) {
		return api.VaultEdit{}, i18n.Wrap(ErrSample, "runner.sample")
	}
	base, err := m.editBase(id, callID)
	if err != nil {
		return api.VaultEdit{}, err
	}
	// One undo at a time: two at once would both find the notes as the
	// edit left them.
	m.undoMu.Lock()
	defer m.undoMu.Unlock()
	e, err := readEdit(m.home, base, callID)
	if err != nil {
		return api.VaultEdit{}, err
	}
	if e.UndoneAt != "" {
		return e, i18n.Wrap(vault.ErrUndoRefused, "vault.undone")
	}
	var c vault.Change
	if err := json.Unmarshal(e.Change, &c); err != nil {
		return api.VaultEdit{}, fmt.Errorf("read %s.change.json: %w", base, runlog.ErrCorruptLog)
	}
	v, err := m.vault()
	if err != nil {
		return api.VaultEdit{}, err
	}
	if err := v.Undo(m.home, &c); err != nil {
		return api.VaultEdit{}, err
	}
	e.UndoneAt = time.Now().UTC().Format(time.RFC3339)
	if _, err := runlog.SaveArtifact(m.home, id, callID+".undone", []byte(e.UndoneAt+"\n")); err != nil {
		return api.VaultEdit{}, i18n.Wrap(err, "runner.undo_unkept", err)
	}
	return e, nil
}

// VaultNote reads a note of the vault the run's tools use, by name (a
// path, a name, an alias or a wikilink, resolved as seen from the note at
// from), through the confinement of the vault's tools.
func (m *Manager) VaultNote(id, name, from string) (api.VaultNote, error) {
	if _, err := runlog.Find(m.home, id); err != nil && !m.isSample(id) {
		return api.VaultNote{}, err
	}
	v, err := m.vault()
	if err != nil {
		return api.VaultNote{}, err
	}
	nv, err := v.View(name, from)
	if err != nil {
		return api.VaultNote{}, err
	}
	out := api.VaultNote{Path: nv.Path, Text: nv.Text, Vault: nv.Vault, Backlinks: []api.VaultBacklink{}}
	for _, b := range nv.Backlinks {
		out.Backlinks = append(out.Backlinks, api.VaultBacklink{From: b.From, Line: b.Link.Line})
	}
	return out, nil
}

// editBase is the ref of a call's artifacts without their extension, once
// the run is known and the call's id is one an artifact may be named by.
func (m *Manager) editBase(id, callID string) (string, error) {
	if callID == "" || strings.ContainsAny(callID, `/\`) || strings.HasPrefix(callID, ".") {
		return "", fmt.Errorf("call %q: %w", callID, runlog.ErrBadArtifactRef)
	}
	if _, err := runlog.Find(m.home, id); err != nil {
		return "", err
	}
	return "artifacts/" + id + "/" + callID, nil
}

// readEdit reads the change a call kept and its undo, if any.
func readEdit(home, base, callID string) (api.VaultEdit, error) {
	raw, _, err := runlog.ReadArtifact(home, base+".change.json", 0, 0)
	if err != nil {
		return api.VaultEdit{}, err
	}
	e := api.VaultEdit{CallID: callID, Change: raw}
	if at, _, err := runlog.ReadArtifact(home, base+".undone", 0, 0); err == nil {
		e.UndoneAt = strings.TrimSpace(string(at))
	}
	return e, nil
}

// vault is the vault the process's runs use, opened if it was not yet.
func (m *Manager) vault() (*vault.Vault, error) {
	m.kitMu.Lock()
	kit := m.kit
	m.kitMu.Unlock()
	if kit == nil && m.openKit != nil {
		// No run has used the tools in this process yet.
		cfg, err := m.config()
		if err != nil {
			return nil, err
		}
		if kit, err = m.Toolkit(m.ctx, cfg); err != nil {
			return nil, err
		}
	}
	var l *vault.Lazy
	if kit != nil {
		kit.mu.Lock()
		l = kit.vault
		kit.mu.Unlock()
	}
	if l == nil {
		return nil, i18n.Wrap(ErrNoVault, "runner.no_vault")
	}
	return l.Vault()
}
