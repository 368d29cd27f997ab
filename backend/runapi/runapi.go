// Package runapi is the runs of a home as the window, the local API and the
// commands use them, whichever process runs them: Runs, which the home's
// owner serves with its runner.Manager and a process attached to the owner
// with a remote.Client (backend/host chooses, and its conformance test
// holds both to the same scenarios), and what the two build them from — the
// Log a run's events are watched from, the Feeds of changed runs, a
// ListQuery.
package runapi

import (
	"context"
	"strings"

	"hermes/backend/agent"
	"hermes/backend/api"
	"hermes/backend/contextmgr"
	"hermes/backend/event"
	"hermes/backend/longterm"
	"hermes/backend/runlog"
	"hermes/backend/store"
)

// Runs is the runs of a home as the window and the local API use them: one
// method for each endpoint of docs/api.md, plus the event bus the window
// forwards and Shutdown.
type Runs interface {
	List() ([]api.Summary, error)
	Events(id string) ([]event.Event, error)
	Watch(id string, after int64) (*Watcher, error)
	Feed() *Feed
	// Bus carries the live events of every run there is to watch.
	Bus() *event.Bus

	Start(ctx context.Context, req api.StartRequest) (string, error)
	Resume(ctx context.Context, id string, o api.Overrides) error
	Fork(ctx context.Context, id string, req api.ForkRequest) (string, error)
	Control(id string, c agent.Control) error
	Approve(id, approvalID string, a api.Answer) error
	Rename(id, title string) error
	Delete(id string) error

	Artifact(id, ref string, offset, limit int) ([]byte, int, error)
	ContextPreview(id string) (contextmgr.Preview, error)

	// VaultEdit says what a vault edit of a run's call changed and whether
	// it was undone; UndoVaultEdit undoes it (refused when a note changed
	// since); VaultNote reads a note of the run's vault by name, as seen
	// from the note at from, confined as the vault's tools are.
	VaultEdit(id, callID string) (api.VaultEdit, error)
	UndoVaultEdit(id, callID string) (api.VaultEdit, error)
	VaultNote(id, name, from string) (api.VaultNote, error)

	Memories(limit int) ([]longterm.Entry, error)
	Memory(id uint64) (longterm.Entry, error)
	PinMemory(id uint64, pinned bool) error
	ForgetMemory(id uint64) error

	Settings() (api.Settings, error)
	// CheckModel says whether the endpoint a run would use with o answers
	// and takes the key, and whether a key was sent.
	CheckModel(ctx context.Context, o api.Overrides) api.ModelCheck
	Shutdown(ctx context.Context) error
}

// ListQuery asks for one page of the runs list: up to Limit runs (0: all)
// after the run Before ("": from the newest) that have Status, that a
// person labelled Label ("good" or "bad"), and whose id, task, title or
// label's note holds Search, ignoring case ("" for any of them: any).
type ListQuery struct {
	Before string
	Limit  int
	Status string
	Label  string
	Search string
	// Labels are the runs' labels, by id, that Label and Search look at:
	// the lister that keeps them in hermes.db fills it in.
	Labels map[string]store.Label
}

// Pager lists runs a page at a time; the Manager and the client of an owner
// are. Runs that are not one page the whole List.
type Pager interface {
	ListPage(q ListQuery) (api.RunPage, error)
}

// Labelled reports whether q looks at the runs' labels, which the lister
// must then fill in.
func (q ListQuery) Labelled() bool { return q.Label != "" || q.Search != "" }

// Matches reports whether a run with this summary and title is one q asks for.
func (q ListQuery) Matches(s runlog.Summary, title string) bool {
	if q.Status != "" && s.Status != q.Status {
		return false
	}
	l := q.Labels[s.RunID]
	if q.Label != "" && l.Label != q.Label {
		return false
	}
	if q.Search == "" {
		return true
	}
	want := strings.ToLower(q.Search)
	for _, in := range []string{s.RunID, s.Task, title, l.Note} {
		if strings.Contains(strings.ToLower(in), want) {
			return true
		}
	}
	return false
}
