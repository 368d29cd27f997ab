// Package app is the layer the desktop window binds to: each method decodes
// what the UI sent, calls backend/runner, and returns (T, error). It mirrors
// the HTTP API of docs/api.md: a failed call rejects the UI's promise with
// the same {"error": …} JSON that the HTTP API answers with.
package app

import (
	"context"
	"errors"
	"log"
	"sync"

	"hermes/backend/agent"
	"hermes/backend/event"
	"hermes/backend/host"
	"hermes/backend/i18n"
	"hermes/backend/runapi"
	"hermes/backend/runlog"
	"hermes/backend/runner"
	"hermes/backend/store"
)

// App is bound into the window as window.go.app.App.
type App struct {
	host *host.Host
	runs runapi.Runs

	mu   sync.Mutex
	ctx  context.Context // the window's, once it started
	stop func()          // ends the forwarding to the window

	watches watchState // the runs the window watches (watch.go)

	notices noticeState
	desk    desktop // the desktop the window runs on (desktop.go)
}

// New returns the App over the home h opened: its runs are this process's
// when it owns the home, else the owner's; closing the window closes h.
func New(h *host.Host) *App { return &App{host: h, runs: h.Runs(), ctx: context.Background()} }

// apiError is what a bound method rejects with.
func apiError(err error) error {
	if err == nil {
		return nil
	}
	return runner.Explain(err)
}

func (a *App) context() context.Context {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.ctx
}

// ListRuns returns the live runs first, then the runs in the home's logs,
// newest first. Logs that cannot be read are left out and reported on
// stderr; the rest still show.
func (a *App) ListRuns() ([]runner.Summary, error) {
	runs, err := a.runs.List()
	if errors.Is(err, runlog.ErrUnreadableLog) {
		log.Print(err)
		err = nil
	}
	if err != nil {
		return nil, apiError(err)
	}
	if runs == nil {
		runs = []runner.Summary{}
	}
	return runs, nil
}

// ListRunsPage is one page of ListRuns, as GET /api/runs?limit=&before=&label=
// pages it: up to limit logged runs (0: all) after the run before ("": from
// the newest, with the live runs first), only those a person labelled label
// ("good" or "bad"; "": any), and the cursor of the next page ("": none).
// The page reads only the summaries it shows, and the labels, from hermes.db.
func (a *App) ListRunsPage(before string, limit int, label string) (runner.RunPage, error) {
	if label != "" && label != store.LabelGood && label != store.LabelBad {
		return runner.RunPage{}, runner.NewAPIError("bad_label", i18n.Errorf("eval.bad_label_filter"))
	}
	pager, ok := a.runs.(runapi.Pager)
	if !ok {
		// Both Runs a host gives (the Manager, the owner's client) page;
		// another is listed whole, as one page, and knows no labels.
		runs, err := a.ListRuns()
		if before != "" || label != "" {
			runs = []runner.Summary{}
		}
		return runner.RunPage{Runs: runs}, err
	}
	page, err := pager.ListPage(runapi.ListQuery{Before: before, Limit: limit, Label: label})
	if errors.Is(err, runlog.ErrUnreadableLog) {
		log.Print(err)
		err = nil
	}
	if err != nil {
		return runner.RunPage{}, apiError(err)
	}
	if page.Runs == nil {
		page.Runs = []runner.Summary{}
	}
	return page, nil
}

// RunEvents returns the events of one run so far, in seq order.
func (a *App) RunEvents(runID string) ([]event.Event, error) {
	events, err := a.runs.Events(runID)
	if err != nil {
		return nil, apiError(err)
	}
	if events == nil {
		events = []event.Event{}
	}
	return events, nil
}

// StartRun checks the model endpoint and starts a run.
func (a *App) StartRun(req runner.StartRequest) (runner.RunRef, error) {
	id, err := a.runs.Start(a.context(), req)
	return runner.RunRef{RunID: id}, apiError(err)
}

// Control pauses, resumes, stops, injects into or edits a live run, at its
// next safe point.
func (a *App) Control(runID string, c agent.Control) error {
	return apiError(a.runs.Control(runID, c))
}

// Approve answers the approval a live run waits for.
func (a *App) Approve(runID, approvalID string, answer runner.Answer) error {
	return apiError(a.runs.Approve(runID, approvalID, answer))
}

// ResumeRun takes up a stopped, failed or crashed run from its checkpoint.
func (a *App) ResumeRun(runID string, req runner.Overrides) (runner.RunRef, error) {
	return runner.RunRef{RunID: runID}, apiError(a.runs.Resume(a.context(), runID, req))
}

// ForkRun starts a new run from iteration req.Iteration of a run.
func (a *App) ForkRun(runID string, req runner.ForkRequest) (runner.RunRef, error) {
	id, err := a.runs.Fork(a.context(), runID, req)
	return runner.RunRef{RunID: id}, apiError(err)
}

// RenameRun gives a run a title; an empty one takes it away.
func (a *App) RenameRun(runID, title string) error { return apiError(a.runs.Rename(runID, title)) }

// DeleteRun removes a run that is not live: log, artifacts, checkpoint.
func (a *App) DeleteRun(runID string) error { return apiError(a.runs.Delete(runID)) }

// ArtifactChunk is part of a full tool output, and the output's size.
type ArtifactChunk struct {
	Text      string `json:"text"`
	TotalSize int    `json:"total_size"`
}

// Artifact returns up to limit bytes (0: all) of a full tool output from
// offset.
func (a *App) Artifact(runID, ref string, offset, limit int) (ArtifactChunk, error) {
	data, total, err := a.runs.Artifact(runID, ref, offset, limit)
	if err != nil {
		return ArtifactChunk{}, apiError(err)
	}
	return ArtifactChunk{Text: string(data), TotalSize: total}, nil
}

// Settings are what the New-run form shows; never the API key.
func (a *App) Settings() (runner.Settings, error) {
	s, err := a.runs.Settings()
	return s, apiError(err)
}

// CheckModel says whether the model endpoint answers and takes the key.
func (a *App) CheckModel(req runner.Overrides) (runner.ModelCheck, error) {
	return a.runs.CheckModel(a.context(), req), nil
}

// Language is the language Hermes speaks, from HERMES_LANG or the system's
// locale; the UI follows it unless the user picks another.
func (a *App) Language() string { return string(i18n.Current()) }
