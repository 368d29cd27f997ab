package runner

import "hermes/backend/store"

// WithStore runs fn with the home's hermes.db, opened for it unless a live
// run holds it open already, and lets it go after: for what the local API
// reads and writes there besides runs (labels, evals).
func (m *Manager) WithStore(fn func(*store.Store) error) error { return m.withStore(fn) }

// Home is the home directory the manager's runs belong to.
func (m *Manager) Home() string { return m.home }
