package runner

import "hermes/backend/pubsub"

// RunFeed tells a viewer of run lists which runs changed: a run started,
// began an iteration, paused, resumed, asked for an approval, or ended. It
// is a coalescing subscription (package pubsub): it keeps only the latest
// summary of each run until it is taken, so a slow viewer never holds a run
// up and never misses a run's last state. Take returns the summaries in the
// order they were published, each run once.
type RunFeed = pubsub.Coalesced[Summary]

// Feeds fans run summaries out to every open RunFeed: a Manager's own, or
// those a client of another process's runs relays. The zero value is ready.
type Feeds struct{ b pubsub.Broker[Summary] }

// Feed returns a new feed of run changes; Close it when done.
func (h *Feeds) Feed() *RunFeed {
	return h.b.Coalesce(func(s Summary) string { return s.RunID })
}

// Publish tells every open feed of s.
func (h *Feeds) Publish(s Summary) { h.b.Publish(s) }

// Feed returns a new feed of run changes; Close it when done.
func (m *Manager) Feed() *RunFeed { return m.feeds.Feed() }

// publish tells every feed of s.
func (m *Manager) publish(s Summary) { m.feeds.Publish(s) }
