package runapi

import (
	"slices"
	"sort"
	"sync"

	"hermes/backend/event"
	"hermes/backend/pubsub"
)

// slowBacklog is how far a watcher may fall behind before the streamed text
// in its backlog is skipped: model.decided repeats that text in full, and
// every other event is always delivered.
const slowBacklog = 512

// Log holds the events of one leg of a run in memory, in seq order, for its
// watchers: a live run's own (runner), or those of a run another process
// runs, relayed as that process streams them (remote, cluster), so that
// every watcher gets the same Watcher, with the same no-gap, no-repeat rule.
type Log struct {
	mu     sync.Mutex
	events []event.Event
	// grew has each event published as it is added and is closed when the
	// leg ends. Watchers keep their place in events and wait on its Changed,
	// which wakes them all at once and registers none of them.
	grew  *pubsub.Broker[event.Event]
	ended bool
}

// NewLog returns the log of a leg with no events yet.
func NewLog() *Log { return &Log{grew: pubsub.New[event.Event](nil)} }

// Replay is the log of a finished leg: its watchers get events and then
// the end at once.
func Replay(events []event.Event) *Log {
	l := NewLog()
	l.events = events
	l.End()
	return l
}

// Add appends e, which must come in seq order; it never blocks on a
// watcher.
func (l *Log) Add(e event.Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events = append(l.events, e)
	l.grew.Publish(e)
}

// End marks the leg over: its watchers return what is left, then end.
func (l *Log) End() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.ended {
		l.ended = true
		l.grew.Close()
	}
}

// Events returns the events so far.
func (l *Log) Events() []event.Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.events)
}

// Watcher follows the events of one run from a seq on. Late joiners get
// every event exactly once: the watcher starts at an index into the same
// slice, under the same lock, that Add appends to, so the events so far and
// the live ones meet with no gap and no repeat.
type Watcher struct {
	l     *Log
	next  int
	after int64 // events up to this seq are not the watcher's, even if they are yet to come
}

// Watch follows the events after seq after.
func (l *Log) Watch(after int64) *Watcher {
	l.mu.Lock()
	defer l.mu.Unlock()
	i := sort.Search(len(l.events), func(i int) bool { return l.events[i].Seq > after })
	return &Watcher{l: l, next: i, after: after}
}

// Next returns the events that came since the last call (the first call:
// every event after the seq Watch was given), without waiting. more is
// closed when further events may be there; it is nil once the run's leg is
// over and every event was returned. A watcher more than slowBacklog events
// behind misses the model.delta events among them.
func (w *Watcher) Next() (events []event.Event, more <-chan struct{}) {
	l := w.l
	l.mu.Lock()
	defer l.mu.Unlock()
	// The slice only grows and its elements never change, so this window
	// can be read after the lock is released.
	events = l.events[w.next:len(l.events):len(l.events)]
	w.next = len(l.events)
	for len(events) > 0 && events[0].Seq <= w.after {
		events = events[1:]
	}
	if len(events) > slowBacklog {
		events = slices.DeleteFunc(slices.Clone(events), func(e event.Event) bool { return e.Type.Droppable() })
	}
	if l.ended {
		return events, nil
	}
	return events, l.grew.Changed()
}
