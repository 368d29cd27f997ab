// Package app is the layer the desktop window binds to: each method decodes
// what the UI sent, calls backend/, and returns (T, error). Wails turns an
// error into a rejected promise whose text is the error's, already in the
// user's language.
package app

import (
	"context"
	"errors"
	"fmt"
	"log"

	"hermes/backend/event"
	"hermes/backend/i18n"
	"hermes/backend/runlog"
)

// App is bound into the window as window.go.app.App.
type App struct {
	home string
	ctx  context.Context
}

// New returns the App of a Hermes home directory.
func New(home string) *App { return &App{home: home} }

// Startup keeps the window's context, which later issues use to forward
// live events to the UI.
func (a *App) Startup(ctx context.Context) { a.ctx = ctx }

// ListRuns returns the runs in the home's logs, newest first. Logs that
// cannot be read are left out and reported on stderr; the rest still show.
func (a *App) ListRuns() ([]runlog.Summary, error) {
	runs, err := runlog.List(a.home)
	if errors.Is(err, runlog.ErrUnreadableLog) {
		log.Print(err)
		err = nil
	}
	if err != nil {
		return nil, fmt.Errorf("list runs in %s: %w", a.home, err)
	}
	if runs == nil {
		runs = []runlog.Summary{}
	}
	return runs, nil
}

// RunEvents returns the events of one run in seq order.
func (a *App) RunEvents(runID string) ([]event.Event, error) {
	path, err := runlog.Find(a.home, runID)
	if err != nil {
		return nil, err
	}
	events, err := runlog.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if events == nil {
		events = []event.Event{}
	}
	return events, nil
}

// Language is the language Hermes speaks, from HERMES_LANG or the system's
// locale; the UI follows it unless the user picks another.
func (a *App) Language() string { return string(i18n.Current()) }
