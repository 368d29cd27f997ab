package runner

import (
	"context"

	"hermes/backend/agent"
	"hermes/backend/contextmgr"
	"hermes/backend/event"
	"hermes/backend/longterm"
)

// Runs is the runs of a home as the window and the local API use them: one
// method for each endpoint of docs/api.md, plus the event bus the window
// forwards and Shutdown. The process that owns the home serves them with its
// Manager; a process that attached to the owner serves them with a client of
// the owner's local API (backend/remote), so both behave alike.
type Runs interface {
	List() ([]Summary, error)
	Events(id string) ([]event.Event, error)
	Watch(id string, after int64) (*Watcher, error)
	Feed() *RunFeed
	// Bus carries the live events of every run there is to watch.
	Bus() *event.Bus

	Start(ctx context.Context, req StartRequest) (string, error)
	Resume(ctx context.Context, id string, o Overrides) error
	Fork(ctx context.Context, id string, req ForkRequest) (string, error)
	Control(id string, c agent.Control) error
	Approve(id, approvalID string, a Answer) error
	Rename(id, title string) error
	Delete(id string) error

	Artifact(id, ref string, offset, limit int) ([]byte, int, error)
	ContextPreview(id string) (contextmgr.Preview, error)

	Memories(limit int) ([]longterm.Entry, error)
	Memory(id uint64) (longterm.Entry, error)
	PinMemory(id uint64, pinned bool) error
	ForgetMemory(id uint64) error

	Settings() (Settings, error)
	// CheckModel says whether the endpoint a run would use with o answers
	// and takes the key, and whether a key was sent.
	CheckModel(ctx context.Context, o Overrides) ModelCheck
	Shutdown(ctx context.Context) error
}

var _ Runs = (*Manager)(nil)

// Relay holds the events of a run that another process runs, as that
// process streams them, so that its watchers get the same Watcher, with the
// same no-gap, no-repeat rule, as the watchers of a run of this process.
type Relay struct{ l *liveRun }

// NewRelay returns the relay of run id, with no events yet.
func NewRelay(id string) *Relay {
	l := newLiveRun(nil)
	l.id = id
	return &Relay{l: l}
}

// Add appends e, which must come in seq order.
func (r *Relay) Add(e event.Event) { _ = r.l.Write(e) } // a liveRun's Write never fails

// End marks the run's leg over: its watchers return what is left, then end.
func (r *Relay) End() { r.l.end() }

// Watch follows the relayed events after seq after.
func (r *Relay) Watch(after int64) *Watcher { return r.l.watch(after) }
