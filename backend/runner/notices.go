package runner

import (
	"slices"
	"sync"
	"time"

	"hermes/backend/update"
)

// Kinds of notices.
const (
	// NoticeConfigError: hermes.toml has a mistake; the last good config
	// stays in force until it is fixed.
	NoticeConfigError = "config_error"
	// NoticeConfigReloaded: a good edit of hermes.toml applies to the runs
	// started from now on. It is only told, never listed.
	NoticeConfigReloaded = "config_reloaded"
	// NoticeUpdate: where the check for a new version of Hermes stands.
	NoticeUpdate = "update"
)

// Notice is something the window or the browser shows outside any run: a
// broken or reloaded hermes.toml, an update on offer. A notice replaces the
// earlier one with the same ID ("config", "update").
type Notice struct {
	ID   string    `json:"id"`
	Kind string    `json:"kind"`
	Time time.Time `json:"time"`
	// Message is the notice in both languages ("en", "zh-CN").
	Message map[string]string `json:"message,omitempty"`
	// Problems are the mistakes of a broken config, each with its place.
	Problems []ConfigProblem `json:"problems,omitempty"`
	// Path is the config file a config notice is about.
	Path string `json:"path,omitempty"`
	// Update is the update's state, for an update notice.
	Update *update.Status `json:"update,omitempty"`
	// Restart says this process can install the update and restart (the
	// window); otherwise the notice says to run `hermes update`.
	Restart bool `json:"restart,omitempty"`
}

// ConfigProblem is one mistake in hermes.toml: where it is (0 when the
// mistake has no place, as a file that cannot be read) and what to do, in
// both languages.
type ConfigProblem struct {
	Line    int               `json:"line,omitempty"`
	Column  int               `json:"column,omitempty"`
	Message map[string]string `json:"message"`
}

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
