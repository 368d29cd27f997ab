package app

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"time"

	"hermes/backend/api"
	"hermes/backend/eval"
	"hermes/backend/i18n"
	"hermes/backend/runner"
	"hermes/backend/store"
)

// The Evals page, labels on runs and a run made a test case, as the local
// API serves them (backend/server/evals.go, evalcase.go): kept in the
// hermes.db of the process that owns the home.

// storeRuns is the runs of the process that owns the home.
type storeRuns interface {
	WithStore(fn func(*store.Store) error) error
	Home() string
}

// ownerClient is the client of the process that owns the home, when the
// window attached to it (backend/remote): it answers for its hermes.db.
type ownerClient interface {
	Owned(ctx context.Context, method, path string, body []byte) (int, []byte, error)
}

func (a *App) owner() (storeRuns, error) {
	if u, ok := a.runs.(storeRuns); ok {
		return u, nil
	}
	return nil, runner.NewAPIError("not_owner", i18n.Errorf("eval.not_owner"))
}

// ask asks the owner's local API, when the window is attached to it, and
// says whether it did; out gets the answer.
func (a *App) ask(method, path string, body, out any) (bool, error) {
	c, ok := a.runs.(ownerClient)
	if !ok {
		return false, nil
	}
	var b []byte
	if body != nil {
		var err error
		if b, err = json.Marshal(body); err != nil {
			return true, err
		}
	}
	_, answer, err := c.Owned(a.context(), method, path, b)
	if err != nil || out == nil || len(answer) == 0 {
		return true, apiError(err)
	}
	return true, json.Unmarshal(answer, out)
}

func runPath(id, rest string) string { return "/api/runs/" + url.PathEscape(id) + rest }

// Labels are the labels of the labelled runs, by run id.
func (a *App) Labels() (map[string]store.Label, error) {
	labels := map[string]store.Label{}
	if asked, err := a.ask(http.MethodGet, "/api/labels", nil, &labels); asked {
		return labels, err
	}
	u, err := a.owner()
	if err != nil {
		return nil, err
	}
	err = u.WithStore(func(st *store.Store) (err error) { labels, err = st.Labels(); return err })
	if labels == nil {
		labels = map[string]store.Label{}
	}
	return labels, apiError(err)
}

// SetLabel marks a run good or bad with a note; "" takes its label away.
func (a *App) SetLabel(runID, label, note string) error {
	if label != "" && label != store.LabelGood && label != store.LabelBad {
		return runner.NewAPIError("bad_label", i18n.Errorf("eval.bad_label"))
	}
	if asked, err := a.ask(http.MethodPut, runPath(runID, "/label"), api.LabelRequest{Label: label, Note: note}, nil); asked {
		return err
	}
	u, err := a.owner()
	if err != nil {
		return err
	}
	if _, err := a.runs.Events(runID); err != nil {
		return apiError(err)
	}
	l := store.Label{Label: label, Note: strings.TrimSpace(note), Updated: time.Now().UTC()}
	return apiError(u.WithStore(func(st *store.Store) error { return st.SetLabel(runID, l) }))
}

// Evals lists the home's evals, newest first, with their counts.
func (a *App) Evals() ([]eval.Listed, error) {
	var rows []eval.Listed
	if asked, err := a.ask(http.MethodGet, "/api/evals", nil, &rows); asked {
		return rows, err
	}
	u, err := a.owner()
	if err != nil {
		return nil, err
	}
	err = u.WithStore(func(st *store.Store) (err error) { rows, err = eval.List(st); return err })
	return rows, apiError(err)
}

// Eval is one eval, its results and its table against its baseline.
func (a *App) Eval(id string) (eval.Shown, error) {
	var v eval.Shown
	if asked, err := a.ask(http.MethodGet, "/api/evals/"+url.PathEscape(id), nil, &v); asked {
		return v, err
	}
	u, err := a.owner()
	if err != nil {
		return eval.Shown{}, err
	}
	err = u.WithStore(func(st *store.Store) (err error) { v, err = eval.Show(st, id); return err })
	return v, apiError(err)
}

// RunCase proposes a test case from a finished run.
func (a *App) RunCase(runID string) (api.CaseProposal, error) {
	var p api.CaseProposal
	if asked, err := a.ask(http.MethodGet, runPath(runID, "/case"), nil, &p); asked {
		return p, err
	}
	u, err := a.owner()
	if err != nil {
		return api.CaseProposal{}, err
	}
	events, err := a.runs.Events(runID)
	if err != nil {
		return api.CaseProposal{}, apiError(err)
	}
	p, err = eval.ProposeCase(u.Home(), events)
	return p, apiError(err)
}

// SaveCase appends a run's (edited) test case to a suite in the home or the
// run's workspace.
func (a *App) SaveCase(runID string, req api.CaseRequest) (api.CaseSaved, error) {
	var saved api.CaseSaved
	if asked, err := a.ask(http.MethodPost, runPath(runID, "/case"), req, &saved); asked {
		return saved, err
	}
	u, err := a.owner()
	if err != nil {
		return api.CaseSaved{}, err
	}
	events, err := a.runs.Events(runID)
	if err != nil {
		return api.CaseSaved{}, apiError(err)
	}
	saved, err = eval.SaveCase(u.Home(), events, req)
	return saved, apiError(err)
}
