package bot

import (
	"log/slog"
	"sync"
	"time"

	"hermes/backend/store"
)

// dedup remembers the message ids seen, so a callback the platform resends
// never starts a second run. The ids recorded by earlier processes are read
// at start, the check is made in memory while the callback waits, and new
// ids are written to the store in batches behind it: a restart still knows
// them, and a callback never waits for the database (whose one writer the
// runs' checkpoints keep busy).
type dedup struct {
	store *store.Store
	now   func() time.Time
	log   *slog.Logger

	mu       sync.Mutex
	mem      map[string]time.Time
	queue    []string
	flushing bool
	flushes  sync.WaitGroup
}

func newDedup(store *store.Store, now func() time.Time, log *slog.Logger) (*dedup, error) {
	mem, err := store.SeenMessages()
	if err != nil {
		return nil, err
	}
	return &dedup{store: store, now: now, log: log, mem: mem}, nil
}

// first reports whether key arrives for the first time, and records it.
func (d *dedup) first(key string) bool {
	d.mu.Lock()
	if _, ok := d.mem[key]; ok {
		d.mu.Unlock()
		return false
	}
	d.mem[key] = d.now()
	d.queue = append(d.queue, key)
	if !d.flushing {
		d.flushing = true
		d.flushes.Add(1)
		go d.flush()
	}
	d.mu.Unlock()
	return true
}

func (d *dedup) flush() {
	defer d.flushes.Done()
	for {
		d.mu.Lock()
		keys := d.queue
		d.queue = nil
		if len(keys) == 0 {
			d.flushing = false
			d.mu.Unlock()
			return
		}
		d.mu.Unlock()
		if err := d.store.RecordSeen(d.now(), keys...); err != nil {
			d.log.Error("message ids not recorded; a resend after a restart may run again", "err", err)
		}
	}
}

// forget drops ids first seen before cutoff, here and in the store.
func (d *dedup) forget(cutoff time.Time) error {
	d.mu.Lock()
	for k, at := range d.mem {
		if at.Before(cutoff) {
			delete(d.mem, k)
		}
	}
	d.mu.Unlock()
	_, err := d.store.ForgetSeen(cutoff)
	return err
}

// wait returns once every id recorded so far is in the store.
func (d *dedup) wait() { d.flushes.Wait() }
