package host

import (
	"time"

	"hermes/backend/runner"
	"hermes/backend/store"
)

// OpenStore opens home's hermes.db for a command that reads or edits it
// beside whatever process owns the home (hermes memory, hermes tools, the
// run index of hermes runs, an update's health check). bbolt lets one
// process hold the file, and the owner holds it while a run is live (the
// bot for its whole life): OpenStore waits for it up to wait (0: the
// store's second), then fails with store.ErrLocked, which says what to do.
// The caller closes the store.
func OpenStore(home string, wait time.Duration) (*store.Store, error) {
	if wait == 0 {
		return store.Open(runner.StorePath(home))
	}
	return store.OpenWithin(runner.StorePath(home), wait)
}
