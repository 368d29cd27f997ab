package app

import (
	"context"
	"sync"

	"hermes/backend/host"
	"hermes/backend/runner"
)

// noticeState is the window's part in notices: their forwarding.
type noticeState struct {
	mu   sync.Mutex
	stop func()
}

// startNotices forwards every notice to the window as it is published,
// until stopNotices. The process that owns the home has notices (host
// follows hermes.toml and checks for updates); an attached one has none.
func (a *App) startNotices(ctx context.Context, emit func(runner.Notice)) {
	board := a.host.Notices()
	if board == nil {
		return
	}
	fctx, cancel := context.WithCancel(ctx)
	feed := board.Watch()
	done := make(chan struct{})
	go func() {
		forwardNotices(fctx, feed, emit)
		close(done)
	}()
	a.notices.mu.Lock()
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
	if board := a.host.Notices(); board != nil {
		return board.List()
	}
	return []runner.Notice{}
}

// InstallUpdate installs the update that was downloaded and restarts into
// it (host.InstallUpdate), then closes the window; the live runs get the
// grace they get when the window closes.
func (a *App) InstallUpdate() error {
	ctx, cancel := context.WithTimeout(context.Background(), host.StopGrace)
	defer cancel()
	if err := a.host.InstallUpdate(ctx); err != nil {
		return apiError(err)
	}
	a.quit()
	return nil
}
