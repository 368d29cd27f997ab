// Package pubsub fans values out from their publishers to subscribers. It is
// the one fan-out of the process: the bus of every run's events, the feed of
// changed runs, the notice board and a live run's watchers all go through a
// Broker, so each kind of subscriber gets the same promise everywhere.
//
// The delivery promise, by kind of subscriber:
//
//   - MustDeliver (logs, exports, tests that check every event): every value,
//     in the order one publisher published them. Publish waits for a full
//     subscriber until it takes the value, closes, or the broker closes: a
//     slow subscriber holds the publisher, and every subscriber after it, up
//     for as long as it is slow. The one exception is a value the broker was
//     told is droppable (streamed text that a later value repeats in full): a
//     full subscriber misses it, and Dropped counts it, instead of waiting.
//   - DropOldest (views that draw the latest state): never waits. A full
//     subscriber loses the oldest value in its buffer to make room for the new
//     one, and Dropped counts it; a slow view costs the publisher at most one
//     more channel operation per value.
//   - Coalesced (views of things that each have a key: runs, notices): never
//     waits and never loses a key's last value. It keeps the latest value of
//     each key until Take; a slow view costs the publisher a map write, and
//     holds at most one value per key it has not taken.
//   - Changed (readers that keep their own place in a shared log): nothing is
//     registered and nothing is copied. The channel Changed returns is closed
//     by the next Publish or Close, which wakes every waiter at once; the
//     publisher pays one close however many wait, and a reader that goes away
//     costs nothing.
//
// Close ends a subscription: its channel is closed once the values already
// in it are read, and a publisher waiting on it is released. Closing the
// broker closes every subscription, wakes the waiters of Changed, and makes
// later Publishes no-ops.
package pubsub

import (
	"sync"
	"sync/atomic"
)

// Mode is what a subscription does with a value its buffer has no room for.
type Mode int

const (
	// MustDeliver makes the publisher wait for room (values the broker
	// calls droppable excepted).
	MustDeliver Mode = iota
	// DropOldest drops the oldest buffered value to make room.
	DropOldest
)

// Broker fans values of type T out to its subscribers. The zero value is
// ready and treats no value as droppable.
type Broker[T any] struct {
	droppable func(T) bool

	mu        sync.RWMutex
	subs      map[*Subscription[T]]struct{}
	coalesced map[*Coalesced[T]]struct{}
	closed    atomic.Bool // set under mu
	closeOnce sync.Once
	doneOnce  sync.Once
	done      chan struct{} // closed by Close; see doneChan

	wakeMu sync.Mutex
	wake   chan struct{} // made when someone waits; closed and dropped by Publish
}

// New returns a broker whose droppable values are those droppable reports
// (nil: none). A MustDeliver subscriber with a full buffer misses those
// instead of holding the publisher up.
func New[T any](droppable func(T) bool) *Broker[T] {
	return &Broker[T]{droppable: droppable}
}

// Subscription is one subscriber's channel of values.
type Subscription[T any] struct {
	// C receives the values; it is closed by Close or the broker's Close.
	C <-chan T

	b       *Broker[T]
	c       chan T
	mode    Mode
	filter  func(T) bool
	done    chan struct{}
	once    sync.Once
	dropped atomic.Int64
}

// Subscribe returns a subscription with a buffer of buffer values (at least
// one for DropOldest, which needs a place to drop from). A nil filter takes
// every value; otherwise only the values for which it returns true.
func (b *Broker[T]) Subscribe(mode Mode, buffer int, filter func(T) bool) *Subscription[T] {
	if mode == DropOldest {
		buffer = max(buffer, 1)
	}
	c := make(chan T, buffer)
	s := &Subscription[T]{C: c, b: b, c: c, mode: mode, filter: filter, done: make(chan struct{})}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed.Load() {
		s.once.Do(func() { close(s.done) })
		close(c)
		return s
	}
	if b.subs == nil {
		b.subs = map[*Subscription[T]]struct{}{}
	}
	b.subs[s] = struct{}{}
	return s
}

// Dropped counts the values this subscriber missed.
func (s *Subscription[T]) Dropped() int64 { return s.dropped.Load() }

// Close stops delivery to s and closes its channel. A publisher waiting for
// room in it goes on at once. Closing twice is harmless.
func (s *Subscription[T]) Close() {
	// done first: a publisher blocked on s holds the read lock until it sees it.
	s.once.Do(func() { close(s.done) })
	b := s.b
	b.mu.Lock()
	_, ok := b.subs[s]
	delete(b.subs, s)
	b.mu.Unlock()
	if ok {
		close(s.c)
	}
}

// Coalesced keeps the latest value of each key published since it was last
// taken from.
type Coalesced[T any] struct {
	b     *Broker[T]
	key   func(T) string
	ready chan struct{}

	mu      sync.Mutex
	pending []keyed[T]     // in publish order; a replaced value stays as a hole
	at      map[string]int // key → its value's index in pending
}

type keyed[T any] struct {
	key  string
	v    T
	hole bool
}

// Coalesce returns a coalescing subscription: values with the same key
// replace each other until taken.
func (b *Broker[T]) Coalesce(key func(T) string) *Coalesced[T] {
	f := &Coalesced[T]{b: b, key: key, ready: make(chan struct{}, 1), at: map[string]int{}}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed.Load() {
		return f
	}
	if b.coalesced == nil {
		b.coalesced = map[*Coalesced[T]]struct{}{}
	}
	b.coalesced[f] = struct{}{}
	return f
}

// Ready receives a value when values are waiting to be taken.
func (f *Coalesced[T]) Ready() <-chan struct{} { return f.ready }

// Take returns the values published since the last Take, in the order they
// were published, less each value a later one with its key replaced.
func (f *Coalesced[T]) Take() []T {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []T
	for _, p := range f.pending {
		if !p.hole {
			out = append(out, p.v)
		}
	}
	f.pending = f.pending[:0]
	clear(f.at)
	return out
}

// Close stops the subscription; values not taken yet can still be.
func (f *Coalesced[T]) Close() {
	f.b.mu.Lock()
	delete(f.b.coalesced, f)
	f.b.mu.Unlock()
}

func (f *Coalesced[T]) put(v T) {
	k := f.key(v)
	f.mu.Lock()
	if i, ok := f.at[k]; ok {
		f.pending[i].hole = true
	}
	f.at[k] = len(f.pending)
	f.pending = append(f.pending, keyed[T]{key: k, v: v})
	// Holes may not outnumber values, so memory stays within twice the keys.
	if len(f.pending) > 2*len(f.at) {
		f.compact()
	}
	f.mu.Unlock()
	select {
	case f.ready <- struct{}{}:
	default:
	}
}

func (f *Coalesced[T]) compact() {
	n := 0
	for _, p := range f.pending {
		if !p.hole {
			f.at[p.key] = n
			f.pending[n] = p
			n++
		}
	}
	clear(f.pending[n:])
	f.pending = f.pending[:n]
}

// Publish delivers v to every subscriber as the package's promise says, and
// wakes the waiters of Changed. After Close it does nothing.
func (b *Broker[T]) Publish(v T) {
	b.mu.RLock()
	if b.closed.Load() {
		b.mu.RUnlock()
		return
	}
	var done chan struct{}
	if len(b.subs) > 0 {
		done = b.doneChan()
	}
	droppable := b.droppable != nil && len(b.subs) > 0 && b.droppable(v)
	for s := range b.subs {
		if s.filter != nil && !s.filter(v) {
			continue
		}
		switch {
		case s.mode == DropOldest:
			s.pushOut(v)
		case droppable:
			select {
			case s.c <- v:
			default:
				s.dropped.Add(1)
			}
		default:
			select {
			case s.c <- v:
			case <-s.done:
			case <-done:
			}
		}
	}
	for f := range b.coalesced {
		f.put(v)
	}
	b.mu.RUnlock()
	b.wakeAll()
}

// pushOut sends v, taking the oldest value out of a full buffer first. The
// reader may take that value meanwhile; either way v gets its place.
func (s *Subscription[T]) pushOut(v T) {
	for {
		select {
		case s.c <- v:
			return
		default:
		}
		select {
		case <-s.c:
			s.dropped.Add(1)
		default:
		}
	}
}

// Changed returns a channel that the next Publish or Close closes; after
// Close it is closed already.
func (b *Broker[T]) Changed() <-chan struct{} {
	b.wakeMu.Lock()
	defer b.wakeMu.Unlock()
	if b.closed.Load() {
		return closedChan
	}
	if b.wake == nil {
		b.wake = make(chan struct{})
	}
	return b.wake
}

// closedChan is what Changed returns once the broker is closed.
var closedChan = func() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}()

func (b *Broker[T]) wakeAll() {
	b.wakeMu.Lock()
	if b.wake != nil {
		close(b.wake)
		b.wake = nil
	}
	b.wakeMu.Unlock()
}

// Close ends the broker: every subscription's channel is closed (after the
// values in it), publishers waiting for room go on, Changed's waiters wake.
// Closing twice is harmless.
func (b *Broker[T]) Close() {
	b.closeOnce.Do(func() {
		close(b.doneChan()) // first: a waiting publisher holds the read lock
		b.mu.Lock()
		b.closed.Store(true)
		subs := b.subs
		b.subs, b.coalesced = nil, nil
		b.mu.Unlock()
		for s := range subs {
			s.once.Do(func() { close(s.done) })
			close(s.c)
		}
	})
	b.wakeAll()
}

func (b *Broker[T]) doneChan() chan struct{} {
	b.doneOnce.Do(func() { b.done = make(chan struct{}) })
	return b.done
}
