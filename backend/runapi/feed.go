package runapi

import (
	"hermes/backend/api"
	"hermes/backend/pubsub"
)

// Feed tells a viewer of run lists which runs changed: a run started,
// began an iteration, paused, resumed, asked for an approval, or ended. It
// is a coalescing subscription (package pubsub): it keeps only the latest
// summary of each run until it is taken, so a slow viewer never holds a run
// up and never misses a run's last state. Take returns the summaries in the
// order they were published, each run once.
type Feed = pubsub.Coalesced[api.Summary]

// Feeds fans run summaries out to every open Feed: a Manager's own, or
// those a client of another process's runs relays. The zero value is ready.
type Feeds struct{ b pubsub.Broker[api.Summary] }

// Feed returns a new feed of run changes; Close it when done.
func (h *Feeds) Feed() *Feed {
	return h.b.Coalesce(func(s api.Summary) string { return s.RunID })
}

// Publish tells every open feed of s.
func (h *Feeds) Publish(s api.Summary) { h.b.Publish(s) }
