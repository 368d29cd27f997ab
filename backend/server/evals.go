package server

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"time"

	"hermes/backend/api"
	"hermes/backend/eval"
	"hermes/backend/i18n"
	"hermes/backend/store"
)

// storeUser is the runs of the process that owns the home (a
// runner.Manager), which open hermes.db for what the API keeps there
// besides runs: labels and evals.
type storeUser interface {
	WithStore(fn func(*store.Store) error) error
}

// withStore runs fn with hermes.db, or answers that only the process that
// owns the home keeps it.
func (s *server) withStore(w http.ResponseWriter, fn func(*store.Store) error) bool {
	u, ok := s.runs.(storeUser)
	if !ok {
		writeAPIError(w, api.Error{Code: "not_owner", Message: bothLanguages("server.store_owner")})
		return false
	}
	if err := u.WithStore(fn); err != nil {
		writeError(w, err)
		return false
	}
	return true
}

func bothLanguages(key string) map[string]string {
	return map[string]string{"en": i18n.In(i18n.EN, key), "zh-CN": i18n.In(i18n.ZH, key)}
}

// labelRun answers PUT /api/runs/{id}/label.
func (s *server) labelRun(w http.ResponseWriter, r *http.Request) {
	var body api.LabelRequest
	if !decode(w, r, &body, false) {
		return
	}
	if !slices.Contains([]string{"", store.LabelGood, store.LabelBad}, body.Label) {
		writeAPIError(w, api.Error{Code: "bad_label", Message: bothLanguages("server.bad_label")})
		return
	}
	id := r.PathValue("id")
	if _, err := s.runs.Events(id); err != nil {
		writeError(w, err)
		return
	}
	l := store.Label{Label: body.Label, Note: strings.TrimSpace(body.Note), Updated: time.Now().UTC()}
	if s.withStore(w, func(st *store.Store) error { return st.SetLabel(id, l) }) {
		w.WriteHeader(http.StatusNoContent)
	}
}

// listLabels answers GET /api/labels: every labelled run's label, by id.
func (s *server) listLabels(w http.ResponseWriter, _ *http.Request) {
	var labels map[string]store.Label
	if s.withStore(w, func(st *store.Store) (err error) { labels, err = st.Labels(); return err }) {
		writeJSON(w, http.StatusOK, labels)
	}
}

// listEvals answers GET /api/evals: every eval, newest first, with how many
// of its runs passed, failed and erred.
func (s *server) listEvals(w http.ResponseWriter, _ *http.Request) {
	var rows []eval.Listed
	if s.withStore(w, func(st *store.Store) (err error) { rows, err = eval.List(st); return err }) {
		writeJSON(w, http.StatusOK, rows)
	}
}

// showEval answers GET /api/evals/{id}: the eval, its results and its
// table, compared with its baseline when it has one.
func (s *server) showEval(w http.ResponseWriter, r *http.Request) {
	var view eval.Shown
	if s.withStore(w, func(st *store.Store) (err error) { view, err = eval.Show(st, r.PathValue("id")); return err }) {
		writeJSON(w, http.StatusOK, view)
	}
}

// ownerClient is the client of the process that owns the home
// (backend/remote), which keeps hermes.db: an attached process passes the
// requests for labels, evals and test cases on to it.
type ownerClient interface {
	Owned(ctx context.Context, method, path string, body []byte) (int, []byte, error)
}

// owned serves h in the process that owns the home, and passes the request
// on to the owner in one attached to it, so that the Evals page of a
// window or hermes serve opened while hermes eval run owns the home fills
// as the eval goes.
func (s *server) owned(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		c, ok := s.runs.(ownerClient)
		if !ok {
			h(w, r)
			return
		}
		var body []byte
		if r.Method != http.MethodGet {
			var raw json.RawMessage
			if !decode(w, r, &raw, true) {
				return
			}
			body = raw
		}
		status, b, err := c.Owned(r.Context(), r.Method, r.URL.RequestURI(), body)
		if err != nil {
			writeError(w, err)
			return
		}
		if len(b) > 0 {
			w.Header().Set("Content-Type", "application/json")
		}
		w.WriteHeader(status)
		_, _ = w.Write(b) // the client that asked is gone
	}
}
