package runner

import (
	"context"
	"sync"

	"hermes/backend/agent"
	"hermes/backend/event"
	"hermes/backend/runapi"
	"hermes/backend/runlog"
)

// liveRun holds the events of one leg of a run in memory, in seq order, for
// its watchers (log), and the state folded from them. It is the run's
// event.Sink: the emitter calls Write under the lock that numbers events,
// so the log is in seq order.
type liveRun struct {
	id       string
	path     string
	controls *agent.Controls // nil until the run is created
	run      *agent.Run      // nil until the run is created; read for the context preview
	// ctx is the run's context; cancel cuts it short (ControlCancel).
	ctx    context.Context
	cancel context.CancelFunc

	log *runapi.Log

	mu      sync.Mutex
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
	return &liveRun{log: runapi.NewLog(), changed: changed}
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
	l.log.Add(e)
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
	l.log.End()
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
