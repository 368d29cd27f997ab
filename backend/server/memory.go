package server

import (
	"net/http"
	"strconv"

	"hermes/backend/api"
	"hermes/backend/i18n"
	"hermes/backend/longterm"
)

// contextPreview answers GET /api/runs/{id}/context/preview: which messages
// the run's next compression will fold.
func (s *server) contextPreview(w http.ResponseWriter, r *http.Request) {
	p, err := s.runs.ContextPreview(r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, p)
}

// listMemory answers GET /api/memory?limit=N, newest first.
func (s *server) listMemory(w http.ResponseWriter, r *http.Request) {
	limit, err := intParam(r.URL.Query().Get("limit"))
	if err != nil {
		writeError(w, err)
		return
	}
	entries, err := s.runs.Memories(limit)
	if err != nil {
		writeError(w, err)
		return
	}
	if entries == nil {
		entries = []longterm.Entry{}
	}
	writeJSON(w, http.StatusOK, entries)
}

func (s *server) showMemory(w http.ResponseWriter, r *http.Request) {
	id, ok := memoryID(w, r)
	if !ok {
		return
	}
	e, err := s.runs.Memory(id)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, e)
}

func (s *server) pinMemory(w http.ResponseWriter, r *http.Request) {
	var body api.PinRequest
	id, ok := memoryID(w, r)
	if !ok || !decode(w, r, &body, false) {
		return
	}
	noContent(w, s.runs.PinMemory(id, body.Pinned))
}

func (s *server) forgetMemory(w http.ResponseWriter, r *http.Request) {
	if id, ok := memoryID(w, r); ok {
		noContent(w, s.runs.ForgetMemory(id))
	}
}

// memoryID reads the {id} of a memory route; an id that is not a number
// names no memory.
func memoryID(w http.ResponseWriter, r *http.Request) (uint64, bool) {
	raw := r.PathValue("id")
	id, err := strconv.ParseUint(raw, 10, 64)
	if err != nil || id == 0 {
		writeError(w, i18n.Wrap(longterm.ErrNoMemory, "server.bad_memory_id", raw))
		return 0, false
	}
	return id, true
}
