package runner

import "hermes/backend/runapi"

// Feed returns a new feed of run changes; Close it when done.
func (m *Manager) Feed() *runapi.Feed { return m.feeds.Feed() }

// publish tells every feed of s.
func (m *Manager) publish(s Summary) { m.feeds.Publish(s) }
