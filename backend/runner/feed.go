package runner

import "sync"

// RunFeed tells a viewer of run lists which runs changed: a run started,
// began an iteration, paused, resumed, asked for an approval, or ended. It
// keeps only the latest summary of each run until it is taken, so a slow
// viewer never holds a run up and never misses a run's last state.
type RunFeed struct {
	m       *Manager
	mu      sync.Mutex
	pending map[string]Summary
	order   []string
	ready   chan struct{}
}

// Feed returns a new feed of run changes; Close it when done.
func (m *Manager) Feed() *RunFeed {
	f := &RunFeed{m: m, pending: map[string]Summary{}, ready: make(chan struct{}, 1)}
	m.feedMu.Lock()
	m.feeds[f] = struct{}{}
	m.feedMu.Unlock()
	return f
}

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
	f.m.feedMu.Lock()
	delete(f.m.feeds, f)
	f.m.feedMu.Unlock()
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
func (m *Manager) publish(s Summary) {
	m.feedMu.RLock()
	defer m.feedMu.RUnlock()
	for f := range m.feeds {
		f.put(s)
	}
}
