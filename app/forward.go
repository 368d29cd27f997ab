package app

import (
	"context"
	"time"

	"hermes/backend/event"
	"hermes/backend/runapi"
	"hermes/backend/runner"
)

// batchEvery is how long live events gather before they cross to the UI,
// so a fast stream does not flood the bridge with one message per event.
const batchEvery = 50 * time.Millisecond

// urgent events cross at once, with whatever gathered before them: a run's
// end, a pause, and approvals, which a person is waiting to see.
var urgent = map[event.Type]bool{
	event.RunFinished: true, event.RunPaused: true, event.RunResumed: true,
	event.ApprovalRequested: true, event.ApprovalResolved: true,
}

// forwardEvents hands the events from in to emit in batches, in order: a
// batch goes when every has passed since its first event, at once when an
// urgent event joins it, and when in closes. It returns when in closes.
func forwardEvents(in <-chan event.Event, every time.Duration, emit func([]event.Event)) {
	var batch []event.Event
	var due <-chan time.Time
	var timer *time.Timer
	flush := func() {
		if len(batch) > 0 {
			emit(batch)
			batch = nil
		}
		if timer != nil {
			timer.Stop()
			timer, due = nil, nil
		}
	}
	for {
		select {
		case e, ok := <-in:
			if !ok {
				flush()
				return
			}
			batch = append(batch, e)
			if urgent[e.Type] {
				flush()
			} else if timer == nil {
				timer = time.NewTimer(every)
				due = timer.C
			}
		case <-due:
			flush()
		}
	}
}

// forwardRuns hands each changed run summary to emit until ctx ends.
func forwardRuns(ctx context.Context, feed *runapi.Feed, emit func(runner.Summary)) {
	for {
		select {
		case <-feed.Ready():
			for _, s := range feed.Take() {
				emit(s)
			}
		case <-ctx.Done():
			return
		}
	}
}
