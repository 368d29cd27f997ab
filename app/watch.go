package app

import (
	"context"
	"sync"
	"time"

	"hermes/backend/event"
	"hermes/backend/runapi"
	"hermes/backend/runner"
)

// watchPrefix begins the name of the Wails event a watch of one run goes
// out on: hermes:watch:WATCH_ID, where the window chose WATCH_ID.
const watchPrefix = "hermes:watch:"

// watchMessage is what a watch sends: a batch of the run's events, then,
// once the run's leg is over, end.
type watchMessage struct {
	Events []event.Event `json:"events,omitempty"`
	End    bool          `json:"end,omitempty"`
}

// watchState is the window's watches of runs, each a runapi.Watcher: the
// window gets the events of the runs it shows, and only those.
type watchState struct {
	mu      sync.Mutex
	emit    func(name string, data any) // to the window; nil before Startup
	watches map[string]*watch
}

// watch is one watch going on.
type watch struct {
	cancel context.CancelFunc
	done   chan struct{}
}

// stop ends w and waits until it sends nothing more.
func (w *watch) stop() {
	w.cancel()
	<-w.done
}

// WatchRun sends the window the events of run runID after seq after, on
// the Wails event hermes:watch:WATCH_ID: those so far, then the live ones,
// in batches as live events always crossed (batchEvery; at once for a
// run's end, a pause and approvals), and then {"end": true} once the run's
// leg is over, at once for a run that is not live. The window listens
// before it calls, so nothing is sent before it listens. A watch with the
// ID of one going on replaces it.
func (a *App) WatchRun(watchID, runID string, after int64) error {
	wr, err := a.runs.Watch(runID, after)
	if err != nil {
		return apiError(err)
	}
	s := &a.watches
	ctx, cancel := context.WithCancel(context.Background())
	me := &watch{cancel: cancel, done: make(chan struct{})}
	s.mu.Lock()
	emit := s.emit
	old := s.watches[watchID]
	if emit != nil {
		if s.watches == nil {
			s.watches = map[string]*watch{}
		}
		s.watches[watchID] = me
	}
	s.mu.Unlock()
	if emit == nil { // no window to send to: it has closed
		cancel()
		return apiError(runner.ErrClosed)
	}
	if old != nil {
		old.stop() // before the new one sends on the same name
	}
	name := watchPrefix + watchID
	send := func(m watchMessage) {
		if ctx.Err() == nil { // a stopped watch sends nothing more
			emit(name, m)
		}
	}
	go func() {
		defer close(me.done)
		if forwardWatch(ctx, wr, batchEvery, func(b []event.Event) { send(watchMessage{Events: b}) }) {
			send(watchMessage{End: true})
			s.mu.Lock()
			if s.watches[watchID] == me {
				delete(s.watches, watchID)
			}
			s.mu.Unlock()
		}
	}()
	return nil
}

// UnwatchRun stops the watch watchID; nothing more goes out on it.
func (a *App) UnwatchRun(watchID string) {
	s := &a.watches
	s.mu.Lock()
	w := s.watches[watchID]
	delete(s.watches, watchID)
	s.mu.Unlock()
	if w != nil {
		w.stop()
	}
}

// start lets watches send to the window through emit.
func (s *watchState) start(emit func(name string, data any)) {
	s.mu.Lock()
	s.emit = emit
	s.mu.Unlock()
}

// stopAll stops every watch, and lets none start: the window is closing.
func (s *watchState) stopAll() {
	s.mu.Lock()
	watches := s.watches
	s.watches, s.emit = nil, nil
	s.mu.Unlock()
	for _, w := range watches {
		w.stop()
	}
}

// forwardWatch hands the events w follows to emit in batches, as
// forwardEvents does, until the run's leg is over (true) or ctx ends
// (false).
func forwardWatch(ctx context.Context, w *runapi.Watcher, every time.Duration, emit func([]event.Event)) bool {
	in := make(chan event.Event)
	over := make(chan bool, 1)
	go func() {
		defer close(in)
		over <- follow(ctx, w, in)
	}()
	forwardEvents(in, every, emit)
	return <-over
}

// follow sends in the events w follows, until the leg is over (true) or
// ctx ends (false).
func follow(ctx context.Context, w *runapi.Watcher, in chan<- event.Event) bool {
	for {
		events, more := w.Next()
		for _, e := range events {
			select {
			case in <- e:
			case <-ctx.Done():
				return false
			}
		}
		if more == nil {
			return true
		}
		select {
		case <-more:
		case <-ctx.Done():
			return false
		}
	}
}
