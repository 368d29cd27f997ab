package server

import (
	"net/http"

	"hermes/backend/api"
	"hermes/backend/runapi"
)

// setVault answers PUT /api/settings/vault: [obsidian] vault written into
// hermes.toml, the settings a new run gets then.
func (s *server) setVault(w http.ResponseWriter, r *http.Request) {
	var req api.VaultRequest
	if !decode(w, r, &req, false) {
		return
	}
	st, err := runapi.SetVault(s.runs, req.Vault)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, st)
}
