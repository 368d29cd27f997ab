package app

import (
	"context"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"hermes/backend/event"
	"hermes/backend/host"
	"hermes/backend/runner"
)

// The Wails events the UI listens to (docs/api.md).
const (
	eventsName = "hermes:events" // a batch of live events, []event.Event
	runName    = "hermes:run"    // one run's changed summary
	noticeName = "hermes:notice" // one notice, runner.Notice
)

// Startup starts forwarding live events and run changes to the window.
// Wails calls it with the window's context.
func (a *App) Startup(ctx context.Context) {
	sub := a.runs.Bus().Subscribe(4096, nil)
	feed := a.runs.Feed()
	fctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{}, 2)
	go func() {
		forwardEvents(sub.C, batchEvery, func(b []event.Event) { runtime.EventsEmit(ctx, eventsName, b) })
		done <- struct{}{}
	}()
	go func() {
		forwardRuns(fctx, feed, func(s runner.Summary) { runtime.EventsEmit(ctx, runName, s) })
		done <- struct{}{}
	}()
	a.startNotices(ctx, func(n runner.Notice) { runtime.EventsEmit(ctx, noticeName, n) })
	a.mu.Lock()
	a.ctx = ctx
	a.stop = func() {
		a.runs.Bus().Unsubscribe(sub)
		cancel()
		feed.Close()
		<-done
		<-done
	}
	a.mu.Unlock()
}

// Shutdown closes the home: the live runs stop at their next safe point
// (checkpoints are saved), the local API ends and the lock goes; then the
// forwarding stops. Wails calls it when the window closes.
func (a *App) Shutdown(context.Context) {
	ctx, cancel := context.WithTimeout(context.Background(), host.StopGrace)
	defer cancel()
	_ = a.host.Close(ctx) // past the grace the runs are cancelled; resume redoes their iteration
	a.stopNotices()
	a.mu.Lock()
	stop := a.stop
	a.stop = nil
	a.mu.Unlock()
	if stop != nil {
		stop()
	}
}

// quit closes the window, after the restart button started the new version.
func (a *App) quit() { runtime.Quit(a.context()) }
