package runner

import (
	"context"
	"slices"
	"sort"
	"sync"

	"hermes/backend/agent"
	"hermes/backend/event"
	"hermes/backend/pubsub"
	"hermes/backend/runlog"
)

// slowBacklog is how far a watcher may fall behind before the streamed text
// in its backlog is skipped: model.decided repeats that text in full, and
// every other event is always delivered.
const slowBacklog = 512

// liveRun holds the events of one leg of a run in memory, in seq order, and
// the state folded from them. It is the run's event.Sink: the emitter calls
// Write under the lock that numbers events, so the slice is in seq order.
// A run that is not live (a replayed log) is a liveRun that has ended.
type liveRun struct {
	id       string
	path     string
	controls *agent.Controls // nil for a replayed log
	run      *agent.Run      // nil for a replayed log; read for the context preview
	// ctx is the run's context; cancel cuts it short (ControlCancel).
	ctx    context.Context
	cancel context.CancelFunc

	mu     sync.Mutex
	events []event.Event
	// grew has each event published as it is added and is closed when the
	// leg ends. Watchers keep their place in events and wait on its Changed,
	// which wakes them all at once and registers none of them.
	grew    *pubsub.Broker[event.Event]
	ended   bool
	fold    runlog.Folder
	paused  bool
	pending *event.ApprovalRequestedData
	// answered is the approval whose answer Approve took, so that a later
	// answer is refused before the run has even read the first.
	answered string
	forked   *event.ForkRef
	title    string
	sample   bool
	// changed hears of the events that change a run's summary in lists.
	changed func(Summary)
}

func newLiveRun(changed func(Summary)) *liveRun {
	return &liveRun{grew: pubsub.New[event.Event](nil), changed: changed}
}

// replay is a liveRun over a finished log: its watchers get the events and
// then the end at once.
func replay(id string, events []event.Event) *liveRun {
	l := newLiveRun(nil)
	l.id = id
	l.load(events)
	l.ended = true
	return l
}

// notable are the events after which lists are told of the run.
var notable = map[event.Type]bool{
	event.RunStarted: true, event.RunResumed: true, event.IterationStarted: true,
	event.RunPaused: true, event.ApprovalRequested: true, event.ApprovalResolved: true,
	event.TaskEdited: true, event.RunFinished: true,
}

// Write appends e; it never blocks on a viewer.
func (l *liveRun) Write(e event.Event) error {
	l.mu.Lock()
	l.add(e)
	l.grew.Publish(e)
	var s Summary
	tell := notable[e.Type] && l.changed != nil
	if tell {
		s = l.summaryLocked()
	}
	l.mu.Unlock()
	if tell {
		l.changed(s)
	}
	return nil
}

// load adds the events a resumed run's log already holds, before it runs.
func (l *liveRun) load(events []event.Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, e := range events {
		l.add(e)
	}
}

func (l *liveRun) add(e event.Event) {
	l.events = append(l.events, e)
	l.fold.Add(e)
	switch e.Type {
	case event.RunStarted:
		if d, err := event.Decode[event.RunStartedData](e); err == nil {
			l.forked = d.ForkedFrom
		}
	case event.RunPaused:
		l.paused = true
	case event.RunResumed:
		l.paused = false
	case event.ApprovalRequested:
		if d, err := event.Decode[event.ApprovalRequestedData](e); err == nil {
			l.pending = &d
		}
	case event.ApprovalResolved, event.RunFinished:
		l.pending = nil
	}
}

// end marks the leg over, wakes the watchers for the last time and returns
// the run's final summary.
func (l *liveRun) end() Summary {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ended, l.paused, l.pending = true, false, nil
	l.grew.Close()
	return l.summaryLocked()
}

func (l *liveRun) summary() Summary {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.summaryLocked()
}

func (l *liveRun) summaryLocked() Summary {
	s := Summary{
		Summary: l.fold.Summary(), Live: !l.ended && l.controls != nil, Title: l.title,
		Paused: l.paused, PendingApproval: l.pending, ForkedFrom: l.forked, Sample: l.sample,
	}
	s.Path = l.path
	return s
}

func (l *liveRun) snapshot() []event.Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.events)
}

func (l *liveRun) setTitle(title string) Summary {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.title = title
	return l.summaryLocked()
}

// takeAnswer claims the answer to approval id: true for the first answer
// to the approval the run waits for, false for any other.
func (l *liveRun) takeAnswer(id string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.pending == nil || l.pending.ApprovalID != id || l.answered == id {
		return false
	}
	l.answered = id
	return true
}

// Watcher follows the events of one run from a seq on. Late joiners get
// every event exactly once: the watcher starts at an index into the same
// slice, under the same lock, that the run's sink appends to, so the events
// so far and the live ones meet with no gap and no repeat.
type Watcher struct {
	l     *liveRun
	next  int
	after int64 // events up to this seq are not the watcher's, even if they are yet to come
}

func (l *liveRun) watch(after int64) *Watcher {
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
