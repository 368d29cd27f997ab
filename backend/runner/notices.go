package runner

import (
	"slices"
	"sync"

	"hermes/backend/pubsub"
)

// NoticeBoard keeps the notices in force and tells its watchers of every
// new one. The zero value is ready.
type NoticeBoard struct {
	mu      sync.Mutex
	current []Notice
	feeds   pubsub.Broker[Notice]
}

// List returns the notices in force, oldest first.
func (b *NoticeBoard) List() []Notice {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := slices.Clone(b.current)
	if out == nil {
		out = []Notice{}
	}
	return out
}

// Publish puts n in force in place of the notice with its ID and tells the
// watchers. A reloaded config clears the config's notice and is told only.
func (b *NoticeBoard) Publish(n Notice) {
	b.mu.Lock()
	defer b.mu.Unlock() // held while telling, so watchers hear in the order of List
	b.current = slices.DeleteFunc(b.current, func(x Notice) bool { return x.ID == n.ID })
	if n.Kind != NoticeConfigReloaded {
		b.current = append(b.current, n)
	}
	b.feeds.Publish(n)
}

// Watch returns a feed of the notices published from now on; Close it
// when done.
func (b *NoticeBoard) Watch() *NoticeFeed {
	return b.feeds.Coalesce(func(n Notice) string { return n.ID })
}

// NoticeFeed holds the notices published since it was last taken from, a
// coalescing subscription (package pubsub): a slow viewer never holds the
// board up, and Take returns them in order; of several with one ID, the
// last.
type NoticeFeed = pubsub.Coalesced[Notice]

// Notices is the board of this process's notices.
func (m *Manager) Notices() *NoticeBoard { return &m.notices }
