package runner

import (
	"sync"

	"hermes/backend/store"
)

// sharedStore opens the home's database while something needs it and closes
// it when the last user lets go. bbolt lets one process hold the file, so an
// idle `hermes serve` or window must not keep it: `hermes run` in a terminal
// would then fail to open it. While a run is live the file stays held, which
// also keeps another process from resuming that run at the same time.
//
// A store the process holds for its whole life (the bot's, which keeps its
// sessions there) is given as held: it is used as it is and never closed.
type sharedStore struct {
	path  string
	held  bool
	mu    sync.Mutex
	users int
	store *store.Store
}

// acquire returns the open store; every acquire is paired with a release.
func (s *sharedStore) acquire() (*store.Store, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.held {
		return s.store, nil
	}
	if s.users == 0 {
		st, err := store.Open(s.path)
		if err != nil {
			return nil, err
		}
		s.store = st
	}
	s.users++
	return s.store, nil
}

// release lets go of the store, closing it when no one else holds it. A
// close error is only a failed sync of pages already written (the store does
// not fsync commits); the next open sees them.
func (s *sharedStore) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.held {
		return
	}
	s.users--
	if s.users == 0 {
		_ = s.store.Close()
		s.store = nil
	}
}
