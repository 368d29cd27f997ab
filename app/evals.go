package app

import (
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

func (a *App) owner() (storeRuns, error) {
	if u, ok := a.runs.(storeRuns); ok {
		return u, nil
	}
	return nil, runner.NewAPIError("not_owner", i18n.Errorf("eval.not_owner"))
}

// Labels are the labels of the labelled runs, by run id.
func (a *App) Labels() (map[string]store.Label, error) {
	u, err := a.owner()
	if err != nil {
		return nil, err
	}
	var labels map[string]store.Label
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
	u, err := a.owner()
	if err != nil {
		return nil, err
	}
	var rows []eval.Listed
	err = u.WithStore(func(st *store.Store) (err error) { rows, err = eval.List(st); return err })
	return rows, apiError(err)
}

// Eval is one eval, its results and its table against its baseline.
func (a *App) Eval(id string) (eval.Shown, error) {
	u, err := a.owner()
	if err != nil {
		return eval.Shown{}, err
	}
	var v eval.Shown
	err = u.WithStore(func(st *store.Store) (err error) { v, err = eval.Show(st, id); return err })
	return v, apiError(err)
}

// RunCase proposes a test case from a finished run.
func (a *App) RunCase(runID string) (api.CaseProposal, error) {
	u, err := a.owner()
	if err != nil {
		return api.CaseProposal{}, err
	}
	events, err := a.runs.Events(runID)
	if err != nil {
		return api.CaseProposal{}, apiError(err)
	}
	p, err := eval.ProposeCase(u.Home(), events)
	return p, apiError(err)
}

// SaveCase appends a run's (edited) test case to a suite in the home or the
// run's workspace.
func (a *App) SaveCase(runID string, req api.CaseRequest) (api.CaseSaved, error) {
	u, err := a.owner()
	if err != nil {
		return api.CaseSaved{}, err
	}
	events, err := a.runs.Events(runID)
	if err != nil {
		return api.CaseSaved{}, apiError(err)
	}
	saved, err := eval.SaveCase(u.Home(), events, req)
	return saved, apiError(err)
}
