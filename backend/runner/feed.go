package runner

import "sync"

// RunFeed tells a viewer of run lists which runs changed: a run started,
// began an iteration, paused, resumed, asked for an approval, or ended. It
// keeps only the latest summary of each run until it is taken, so a slow
// viewer never holds a run up and never misses a run's last state.
type RunFeed struct {
	feeds   *Feeds
	mu      sync.Mutex
	pending map[string]Summary
	order   []string
	ready   chan struct{}
}

// Feeds fans run summaries out to every open RunFeed: a Manager's own, or
// those a client of another process's runs relays. The zero value is ready.
type Feeds struct {
	mu  sync.RWMutex
	set map[*RunFeed]struct{}
}

// Feed returns a new feed of run changes; Close it when done.
func (h *Feeds) Feed() *RunFeed {
	f := &RunFeed{feeds: h, pending: map[string]Summary{}, ready: make(chan struct{}, 1)}
	h.mu.Lock()
	if h.set == nil {
		h.set = map[*RunFeed]struct{}{}
	}
	h.set[f] = struct{}{}
	h.mu.Unlock()
	return f
}

// Publish tells every open feed of s.
func (h *Feeds) Publish(s Summary) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	for f := range h.set {
		f.put(s)
	}
}

// Feed returns a new feed of run changes; Close it when done.
func (m *Manager) Feed() *RunFeed { return m.feeds.Feed() }

// Ready receives a value when summaries are waiting to be taken.
func (f *RunFeed) Ready() <-chan struct{} { return f.ready }

// Take returns the summaries that changed since the last Take, in the order
// their runs first changed.
func (f *RunFeed) Take() []Summary {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]Summary, 0, len(f.order))
	for _, id := range f.order {
		out = append(out, f.pending[id])
	}
	clear(f.pending)
	f.order = f.order[:0]
	return out
}

// Close stops the feed.
func (f *RunFeed) Close() {
	f.feeds.mu.Lock()
	delete(f.feeds.set, f)
	f.feeds.mu.Unlock()
}

func (f *RunFeed) put(s Summary) {
	f.mu.Lock()
	if _, ok := f.pending[s.RunID]; !ok {
		f.order = append(f.order, s.RunID)
	}
	f.pending[s.RunID] = s
	f.mu.Unlock()
	select {
	case f.ready <- struct{}{}:
	default:
	}
}

// publish tells every feed of s.
func (m *Manager) publish(s Summary) { m.feeds.Publish(s) }
