package remote

import (
	"fmt"
	"net/http"
	"strconv"

	"hermes/backend/contextmgr"
	"hermes/backend/longterm"
)

// ContextPreview asks the owner which messages a run's next compression
// will fold.
func (c *Client) ContextPreview(id string) (contextmgr.Preview, error) {
	var p contextmgr.Preview
	return p, c.quick(http.MethodGet, runPath(id, "/context/preview"), nil, &p)
}

// Memories lists the owner's long-term memories, newest first.
func (c *Client) Memories(limit int) ([]longterm.Entry, error) {
	var out []longterm.Entry
	return out, c.quick(http.MethodGet, "/api/memory?limit="+strconv.Itoa(limit), nil, &out)
}

// Memory returns one of the owner's memories.
func (c *Client) Memory(id uint64) (longterm.Entry, error) {
	var e longterm.Entry
	return e, c.quick(http.MethodGet, memoryPath(id, ""), nil, &e)
}

// PinMemory pins or unpins one of the owner's memories.
func (c *Client) PinMemory(id uint64, pinned bool) error {
	return c.quick(http.MethodPost, memoryPath(id, "/pin"), map[string]bool{"pinned": pinned}, nil)
}

// ForgetMemory removes one of the owner's memories.
func (c *Client) ForgetMemory(id uint64) error {
	return c.quick(http.MethodDelete, memoryPath(id, ""), nil, nil)
}

func memoryPath(id uint64, rest string) string { return fmt.Sprintf("/api/memory/%d%s", id, rest) }
