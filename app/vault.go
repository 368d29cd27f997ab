package app

import "hermes/backend/api"

// VaultEdit says what a vault edit of a run's call changed and whether it
// was undone.
func (a *App) VaultEdit(runID, callID string) (api.VaultEdit, error) {
	e, err := a.runs.VaultEdit(runID, callID)
	return e, apiError(err)
}

// UndoVaultEdit puts back what a vault edit of a run's call changed (a
// rename as one); refused, with why, when a note changed since.
func (a *App) UndoVaultEdit(runID, callID string) (api.VaultEdit, error) {
	e, err := a.runs.UndoVaultEdit(runID, callID)
	return e, apiError(err)
}

// VaultNote reads a note of the run's vault by name, as a wikilink in the
// note at from ("" for none) finds it.
func (a *App) VaultNote(runID, name, from string) (api.VaultNote, error) {
	n, err := a.runs.VaultNote(runID, name, from)
	return n, apiError(err)
}
