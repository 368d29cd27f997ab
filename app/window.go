package app

import (
	"context"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"hermes/backend/runner"
)

// The Wails events the UI listens to (docs/api.md); a run's events go out
// on the watches the window asks for (watch.go).
const (
	runName    = "hermes:run"    // one run's changed summary
	noticeName = "hermes:notice" // one notice, runner.Notice
)

// Startup starts forwarding run changes and notices to the window, and
// lets it watch runs. Wails calls it with the window's context.
func (a *App) Startup(ctx context.Context) {
	emit := func(name string, data any) { runtime.EventsEmit(ctx, name, data) }
	feed := a.runs.Feed()
	fctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		forwardRuns(fctx, feed, func(s runner.Summary) { emit(runName, s) })
		close(done)
	}()
	a.startNotices(ctx, func(n runner.Notice) { emit(noticeName, n) })
	a.watches.start(emit)
	a.mu.Lock()
	a.ctx = ctx
	a.stop = func() {
		a.watches.stopAll()
		cancel()
		feed.Close()
		<-done
	}
	a.mu.Unlock()
}

// Shutdown closes the home: the live runs stop at their next safe point
// (checkpoints are saved), the local API ends and the lock goes; then the
// forwarding stops. Wails calls it when the window closes.
func (a *App) Shutdown(context.Context) {
	_ = a.host.Stop(nil) // past the grace the runs are cancelled; resume redoes their iteration
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
