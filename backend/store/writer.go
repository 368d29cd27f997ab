package store

import (
	"fmt"
	"sync"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// Checkpoint is one save of a run: its state, and its turns from index From
// on. The store must hold exactly From turns of the run before it, so a save
// that follows one that failed fails too, instead of leaving a gap.
type Checkpoint struct {
	RunID string
	State []byte
	From  int
	Turns [][]byte
	// Before runs in the writer before the commit that holds this
	// checkpoint: the run log's fsync, so the log is never behind a durable
	// checkpoint that points into it.
	Before func() error
	// Summary, when set, is called in the writer after Before: the run's
	// summary as of the log just synced (runlog.Writer.TakeSummary), kept in
	// the checkpoint's own commit, so an iteration costs one synced commit.
	// nil from it: the summary has not changed.
	Summary func() *RunSummary
}

// Saving is a queued checkpoint. Wait returns once it is durable, or why it
// failed.
type Saving struct {
	done chan struct{}
	err  error
}

// Wait blocks until the checkpoint is committed and synced, or has failed.
func (p *Saving) Wait() error {
	<-p.done
	return p.err
}

// Failed is the error of a checkpoint that has already failed, without
// waiting for one still under way.
func (p *Saving) Failed() error {
	select {
	case <-p.done:
		return p.err
	default:
		return nil
	}
}

func (p *Saving) end(err error) {
	p.err = err
	close(p.done)
}

type queued struct {
	c Checkpoint
	p *Saving
}

// writer commits queued checkpoints on a goroutine of its own, so the loop
// never waits for an fsync: each commit is synced (a power cut leaves the
// file whole, one checkpoint or a few behind), and the checkpoints queued
// while one commit syncs go together in the next, however many runs share
// the store.
type writer struct {
	mu     sync.Mutex
	queue  []queued
	closed bool
	wake   chan struct{}
	done   chan struct{}
}

func (s *Store) startWriter() {
	s.w = &writer{wake: make(chan struct{}, 1), done: make(chan struct{})}
	go s.writeLoop()
}

// QueueCheckpoint hands c to the store's writer and returns at once. The
// checkpoints of one run are committed in the order they were queued.
func (s *Store) QueueCheckpoint(c Checkpoint) *Saving {
	p := &Saving{done: make(chan struct{})}
	w := s.w
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		p.end(fmt.Errorf("save checkpoint of run %s: %w", c.RunID, bolterrors.ErrDatabaseNotOpen))
		return p
	}
	w.queue = append(w.queue, queued{c, p})
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
	return p
}

func (s *Store) writeLoop() {
	w := s.w
	defer close(w.done)
	for range w.wake {
		w.mu.Lock()
		batch, closed := w.queue, w.closed
		w.queue = nil
		w.mu.Unlock()
		if len(batch) > 0 {
			s.commit(batch)
		}
		if closed {
			return
		}
	}
}

// stopWriter commits what is queued and stops the writer; later saves fail.
func (s *Store) stopWriter() {
	w := s.w
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		<-w.done
		return
	}
	w.closed = true
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
	<-w.done
}

// commit runs each run's Before (the last one queued covers the earlier)
// and takes its summary, then saves the batch in one synced transaction. If
// that fails, each checkpoint is tried alone, so one run's failure is not
// another's; a run's summary goes with its last checkpoint.
func (s *Store) commit(batch []queued) {
	failed := map[string]error{}
	last := map[string]int{}
	for i, q := range batch {
		last[q.c.RunID] = i
	}
	sums := map[int]*RunSummary{}
	for run, i := range last {
		c := batch[i].c
		if c.Before != nil {
			if err := c.Before(); err != nil {
				failed[run] = err
				continue
			}
		}
		if c.Summary != nil {
			if sum := c.Summary(); sum != nil {
				sums[i] = sum
			}
		}
	}
	var ok []int
	for i, q := range batch {
		if err := failed[q.c.RunID]; err != nil {
			q.p.end(fmt.Errorf("save checkpoint of run %s: %w", q.c.RunID, err))
		} else {
			ok = append(ok, i)
		}
	}
	put := func(tx *bolt.Tx, i int) error {
		if err := putCheckpoint(tx, batch[i].c); err != nil {
			return err
		}
		if sum := sums[i]; sum != nil {
			return putRun(tx, *sum)
		}
		return nil
	}
	err := s.update(func(tx *bolt.Tx) error {
		for _, i := range ok {
			if err := put(tx, i); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil {
		for _, i := range ok {
			batch[i].p.end(nil)
		}
		s.tellDurable(batch, ok)
		return
	}
	var saved []int
	for _, i := range ok {
		err := s.update(func(tx *bolt.Tx) error { return put(tx, i) })
		if err != nil {
			err = fmt.Errorf("save checkpoint of run %s: %w", batch[i].c.RunID, err)
		} else {
			saved = append(saved, i)
		}
		batch[i].p.end(err)
	}
	s.tellDurable(batch, saved)
}

// OnCheckpoint has f told, on the writer's goroutine, the run of each
// queued checkpoint once it is durable (once a commit for several of one
// run): f must not block. A bot replica copies the checkpoint elsewhere.
func (s *Store) OnCheckpoint(f func(runID string)) { s.durable.Store(&f) }

func (s *Store) tellDurable(batch []queued, saved []int) {
	f := s.durable.Load()
	if f == nil {
		return
	}
	told := map[string]bool{}
	for _, i := range saved {
		if id := batch[i].c.RunID; !told[id] {
			told[id] = true
			(*f)(id)
		}
	}
}

// Commits is the id of the store's last committed write transaction: it
// grows by one at every commit, and every commit is synced, so its growth
// over a run counts the run's fsyncs of hermes.db.
func (s *Store) Commits() (int, error) {
	var id int
	err := s.view(func(tx *bolt.Tx) error {
		id = tx.ID()
		return nil
	})
	return id, err
}
