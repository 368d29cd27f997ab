package api

import "encoding/json"

// VaultEdit answers GET /api/runs/{id}/calls/{call_id}/edit and its undo,
// POST /api/runs/{id}/calls/{call_id}/undo: what a vault edit of the run
// changed (the vault.Change kept with the run, as it was kept) and when it
// was undone, if it was.
type VaultEdit struct {
	CallID string          `json:"call_id"`
	Change json.RawMessage `json:"change"`
	// UndoneAt is when the edit was undone (RFC 3339), "" while it stands.
	UndoneAt string `json:"undone_at,omitempty"`
}

// VaultNote answers GET /api/runs/{id}/note?name=…&from=…: a note of the
// run's vault as the inspector shows it, read through the confinement of
// the vault's tools.
type VaultNote struct {
	Path string `json:"path"`
	Text string `json:"text"`
	// Vault is the vault's folder name, as obsidian://open?vault= names it.
	Vault     string          `json:"vault"`
	Backlinks []VaultBacklink `json:"backlinks"`
}

// VaultBacklink is a link to the note from another: the linking note and
// the line the link is on.
type VaultBacklink struct {
	From string `json:"from"`
	Line int    `json:"line"`
}
