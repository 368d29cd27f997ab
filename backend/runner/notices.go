package runner

import (
	"slices"
	"sync"
)

// NoticeBoard keeps the notices in force and tells its watchers of every
// new one. The zero value is ready.
type NoticeBoard struct {
	mu       sync.Mutex
	current  []Notice
	watchers map[*NoticeFeed]struct{}
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
	b.current = slices.DeleteFunc(b.current, func(x Notice) bool { return x.ID == n.ID })
	if n.Kind != NoticeConfigReloaded {
		b.current = append(b.current, n)
	}
	for f := range b.watchers {
		f.put(n)
	}
	b.mu.Unlock()
}

// Watch returns a feed of the notices published from now on; Close it
// when done.
func (b *NoticeBoard) Watch() *NoticeFeed {
	f := &NoticeFeed{board: b, ready: make(chan struct{}, 1)}
	b.mu.Lock()
	if b.watchers == nil {
		b.watchers = map[*NoticeFeed]struct{}{}
	}
	b.watchers[f] = struct{}{}
	b.mu.Unlock()
	return f
}

// NoticeFeed holds the notices published since it was last taken from. A
// slow viewer never holds the board up: notices wait in the feed.
type NoticeFeed struct {
	board   *NoticeBoard
	mu      sync.Mutex
	pending []Notice
	ready   chan struct{}
}

// Ready receives a value when notices are waiting to be taken.
func (f *NoticeFeed) Ready() <-chan struct{} { return f.ready }

// Take returns the notices published since the last Take, in order; of
// several with one ID, the last.
func (f *NoticeFeed) Take() []Notice {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.pending
	f.pending = nil
	return out
}

// Close stops the feed.
func (f *NoticeFeed) Close() {
	f.board.mu.Lock()
	delete(f.board.watchers, f)
	f.board.mu.Unlock()
}

func (f *NoticeFeed) put(n Notice) {
	f.mu.Lock()
	f.pending = slices.DeleteFunc(f.pending, func(x Notice) bool { return x.ID == n.ID })
	f.pending = append(f.pending, n)
	f.mu.Unlock()
	select {
	case f.ready <- struct{}{}:
	default:
	}
}

// Notices is the board of this process's notices.
func (m *Manager) Notices() *NoticeBoard { return &m.notices }
