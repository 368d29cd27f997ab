package server

import (
	"net/http"

	"hermes/backend/api"
	"hermes/backend/eval"
	"hermes/backend/event"
)

// homeUser is the runs of the process that owns the home, which can read
// the run's artifacts for a test case proposed from it.
type homeUser interface {
	storeUser
	Home() string
}

// caseRun is the home and the events of the run a test case is made of.
func (s *server) caseRun(w http.ResponseWriter, r *http.Request) (string, []event.Event, bool) {
	u, ok := s.runs.(homeUser)
	if !ok {
		writeAPIError(w, api.Error{Code: "not_owner", Message: bothLanguages("server.store_owner")})
		return "", nil, false
	}
	events, err := s.runs.Events(r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return "", nil, false
	}
	return u.Home(), events, true
}

// runCase answers GET /api/runs/{id}/case: the [[task]] proposed from the
// finished run and the files of its fixture.
func (s *server) runCase(w http.ResponseWriter, r *http.Request) {
	home, events, ok := s.caseRun(w, r)
	if !ok {
		return
	}
	p, err := eval.ProposeCase(home, events)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, p)
}

// saveCase answers POST /api/runs/{id}/case: the edited [[task]] appended
// to the suite the person named, in the home or the run's workspace
// (eval.SaveCase).
func (s *server) saveCase(w http.ResponseWriter, r *http.Request) {
	var body api.CaseRequest
	if !decode(w, r, &body, false) {
		return
	}
	home, events, ok := s.caseRun(w, r)
	if !ok {
		return
	}
	saved, err := eval.SaveCase(home, events, body)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, saved)
}
