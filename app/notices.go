package app

import (
	"context"
	"log"
	"os"
	"sync"
	"time"

	"hermes/backend/i18n"
	"hermes/backend/runner"
	"hermes/backend/update"
)

// homeOwner is what the process that owns the home does besides its runs:
// it follows hermes.toml and checks for updates, and shows both as notices.
// A window attached to another process has none of it.
type homeOwner interface {
	Notices() *runner.NoticeBoard
	WatchConfig(ctx context.Context) error
	CheckForUpdates(ctx context.Context, o runner.UpdateOptions) (*update.Checker, error)
}

// noticeState is the window's part in notices: the forwarding, and the
// update the restart button installs.
type noticeState struct {
	mu      sync.Mutex
	checker *update.Checker
	stop    func()
}

// startNotices follows hermes.toml, starts the update check, and forwards
// every notice to the window as it is published, until stopNotices.
func (a *App) startNotices(ctx context.Context, emit func(runner.Notice)) {
	owner, ok := a.runs.(homeOwner)
	if !ok {
		return
	}
	fctx, cancel := context.WithCancel(ctx)
	feed := owner.Notices().Watch()
	done := make(chan struct{})
	go func() {
		forwardNotices(fctx, feed, emit)
		close(done)
	}()
	if err := owner.WatchConfig(fctx); err != nil {
		log.Print(err) // the window still works; only edits need a restart
	}
	checker, err := owner.CheckForUpdates(fctx, runner.UpdateOptions{Version: a.Version, Restart: true})
	if err != nil {
		log.Print(err)
	}
	a.notices.mu.Lock()
	a.notices.checker = checker
	a.notices.stop = func() {
		cancel()
		feed.Close()
		<-done
	}
	a.notices.mu.Unlock()
}

func (a *App) stopNotices() {
	a.notices.mu.Lock()
	stop := a.notices.stop
	a.notices.stop = nil
	a.notices.mu.Unlock()
	if stop != nil {
		stop()
	}
}

// forwardNotices hands each notice from feed to emit, in order, until ctx
// ends.
func forwardNotices(ctx context.Context, feed *runner.NoticeFeed, emit func(runner.Notice)) {
	for {
		select {
		case <-feed.Ready():
			for _, n := range feed.Take() {
				emit(n)
			}
		case <-ctx.Done():
			return
		}
	}
}

// Notices returns the notices in force: a broken hermes.toml, an update
// on offer.
func (a *App) Notices() []runner.Notice {
	if owner, ok := a.runs.(homeOwner); ok {
		return owner.Notices().List()
	}
	return []runner.Notice{}
}

// installGrace bounds how long live runs get to reach a safe point before
// an update is installed.
const installGrace = 10 * time.Second

// InstallUpdate installs the update that was downloaded and restarts into
// it: the live runs stop at a safe point and the database is let go first,
// since the new version's health check opens it. If the install fails, the
// old version is back in place and the error says to restart Hermes.
func (a *App) InstallUpdate() error {
	a.notices.mu.Lock()
	checker := a.notices.checker
	a.notices.mu.Unlock()
	if checker == nil || checker.Status().State != update.StateReady {
		return apiError(i18n.Wrap(update.ErrNotReady, "app.update.not_ready"))
	}
	stopCtx, cancel := context.WithTimeout(context.Background(), installGrace)
	defer cancel()
	_ = a.runs.Shutdown(stopCtx) // past the grace the runs are cancelled; resume redoes their iteration
	if err := checker.Apply(context.Background()); err != nil {
		return apiError(i18n.Wrap(err, "app.update.failed", err))
	}
	exe, err := os.Executable()
	if err == nil {
		err = update.Relaunch(exe, os.Args[1:])
	}
	if err != nil {
		return apiError(i18n.Wrap(err, "app.update.relaunch", err))
	}
	a.quit()
	return nil
}
