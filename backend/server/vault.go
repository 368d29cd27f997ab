package server

import "net/http"

// vaultEdit answers GET /api/runs/{id}/calls/{call_id}/edit: what a vault
// edit of the run changed, and whether it was undone.
func (s *server) vaultEdit(w http.ResponseWriter, r *http.Request) {
	e, err := s.runs.VaultEdit(r.PathValue("id"), r.PathValue("call_id"))
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, e)
}

// undoVaultEdit answers POST /api/runs/{id}/calls/{call_id}/undo: the edit
// put back (a rename as one), or refused with why when a note changed
// since. It changes notes on disk, so it passes every check a change does
// (guard.go) as every POST does.
func (s *server) undoVaultEdit(w http.ResponseWriter, r *http.Request) {
	e, err := s.runs.UndoVaultEdit(r.PathValue("id"), r.PathValue("call_id"))
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, e)
}

// vaultNote answers GET /api/runs/{id}/note?name=NAME&from=PATH: a note of
// the run's vault, found by name as a wikilink in the note at from would
// find it, and the notes that link to it.
func (s *server) vaultNote(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	n, err := s.runs.VaultNote(r.PathValue("id"), q.Get("name"), q.Get("from"))
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, n)
}
