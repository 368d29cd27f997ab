package remote

import (
	"net/http"
	"net/url"

	"hermes/backend/api"
)

// VaultEdit asks the owner what a vault edit of a run's call changed and
// whether it was undone.
func (c *Client) VaultEdit(id, callID string) (api.VaultEdit, error) {
	var e api.VaultEdit
	return e, c.quick(http.MethodGet, runPath(id, "/calls/"+url.PathEscape(callID)+"/edit"), nil, &e)
}

// UndoVaultEdit asks the owner to undo a vault edit of a run's call.
func (c *Client) UndoVaultEdit(id, callID string) (api.VaultEdit, error) {
	var e api.VaultEdit
	return e, c.quick(http.MethodPost, runPath(id, "/calls/"+url.PathEscape(callID)+"/undo"), nil, &e)
}

// VaultNote asks the owner for a note of a run's vault by name.
func (c *Client) VaultNote(id, name, from string) (api.VaultNote, error) {
	var n api.VaultNote
	q := url.Values{"name": {name}}
	if from != "" {
		q.Set("from", from)
	}
	return n, c.quick(http.MethodGet, runPath(id, "/note?"+q.Encode()), nil, &n)
}
