package runner

import (
	"errors"
	"time"

	"hermes/backend/i18n"
	"hermes/backend/longterm"
	"hermes/backend/store"
)

// DefaultMemoryLimit is how many memories a list shows when it names no limit.
const DefaultMemoryLimit = 50

// Memories returns up to limit long-term memories (DefaultMemoryLimit when
// limit is 0 or less), newest first.
func (m *Manager) Memories(limit int) ([]longterm.Entry, error) {
	if limit <= 0 {
		limit = DefaultMemoryLimit
	}
	var out []longterm.Entry
	err := m.withStore(func(s *store.Store) (err error) {
		out, err = longterm.New(s).Memories(limit)
		return err
	})
	if out == nil {
		out = []longterm.Entry{}
	}
	return out, err
}

// Memory returns one long-term memory.
func (m *Manager) Memory(id uint64) (longterm.Entry, error) {
	var e longterm.Entry
	err := m.withStore(func(s *store.Store) (err error) {
		e, err = longterm.New(s).Get(id)
		return err
	})
	return e, memoryError(err, id)
}

// PinMemory pins a memory (it never fades and is recalled for every task)
// or unpins it.
func (m *Manager) PinMemory(id uint64, pinned bool) error {
	return memoryError(m.withStore(func(s *store.Store) error { return longterm.New(s).Pin(id, pinned, time.Now()) }), id)
}

// ForgetMemory removes a memory for good.
func (m *Manager) ForgetMemory(id uint64) error {
	return memoryError(m.withStore(func(s *store.Store) error { return longterm.New(s).Forget(id) }), id)
}

// withStore opens the home's database for fn, unless a live run holds it
// open already, and lets it go after.
func (m *Manager) withStore(fn func(*store.Store) error) error {
	s, err := m.store.acquire()
	if err != nil {
		return err
	}
	defer m.store.release()
	return fn(s)
}

func memoryError(err error, id uint64) error {
	if errors.Is(err, longterm.ErrNoMemory) {
		return i18n.Wrap(err, "runner.memory_not_found", id)
	}
	return err
}
