package chatapi

import (
	"context"
	"slices"
	"sync"
	"time"
)

// Limit is a limit a call waits for before it starts: a Limiter, or one
// the bot's replicas share (backend/cluster). done is called when the
// call has ended.
type Limit interface {
	Acquire(ctx context.Context) (done func(), err error)
}

// Limiter lets at most n calls be counted in any span of length per, where
// they are counted: at the far end, after a network delay that varies. A
// call holds its place from the moment it starts until per after it ends,
// so a call may start only while fewer than n are in flight or ended within
// the last per. Then no n+1 calls can arrive within per of one another,
// however long each took on the way: of any n+1, the last to start found
// the other n still holding their places.
type Limiter struct {
	n   int
	per time.Duration
	now func() time.Time

	mu       sync.Mutex
	inFlight int
	ended    []time.Time     // end times within the last per, oldest first
	queue    []chan struct{} // the callers waiting, first come first
}

// NewLimiter lets n calls (at least one) be counted in any span of per.
func NewLimiter(n int, per time.Duration, now func() time.Time) *Limiter {
	return &Limiter{n: max(n, 1), per: per, now: now}
}

// Acquire waits for a place, or for ctx. The caller calls done when the
// call has ended (its answer received, or given up on). Callers get places
// in the order they came: only the first waiter watches for one, so a
// place that frees wakes one goroutine, not every one that waits.
func (l *Limiter) Acquire(ctx context.Context) (done func(), err error) {
	l.mu.Lock()
	if len(l.queue) == 0 && l.free() {
		l.inFlight++
		l.mu.Unlock()
		return l.release, nil
	}
	me := make(chan struct{}, 1)
	l.queue = append(l.queue, me)
	for {
		var expire *time.Timer
		if l.queue[0] == me {
			if l.free() {
				l.queue = l.queue[1:]
				l.inFlight++
				l.wakeFirst() // there may be a place for the next one too
				l.mu.Unlock()
				return l.release, nil
			}
			if len(l.ended) > 0 {
				// Or until the oldest end ages out.
				expire = time.NewTimer(l.ended[0].Add(l.per).Sub(l.now()))
			}
		}
		l.mu.Unlock()
		var expired <-chan time.Time
		if expire != nil {
			expired = expire.C
		}
		select {
		case <-me:
		case <-expired:
		case <-ctx.Done():
		}
		if expire != nil {
			expire.Stop()
		}
		if ctx.Err() != nil {
			l.mu.Lock()
			l.queue = slices.DeleteFunc(l.queue, func(c chan struct{}) bool { return c == me })
			l.wakeFirst()
			l.mu.Unlock()
			return nil, ctx.Err()
		}
		l.mu.Lock()
	}
}

// free drops the ends older than per and reports whether a call may start;
// call it with l.mu held.
func (l *Limiter) free() bool {
	now := l.now()
	drop := 0
	for drop < len(l.ended) && now.Sub(l.ended[drop]) >= l.per {
		drop++
	}
	l.ended = l.ended[drop:]
	return l.inFlight+len(l.ended) < l.n
}

// wakeFirst tells the first waiter to look again; call it with l.mu held.
func (l *Limiter) wakeFirst() {
	if len(l.queue) > 0 {
		select {
		case l.queue[0] <- struct{}{}:
		default: // told already
		}
	}
}

func (l *Limiter) release() {
	l.mu.Lock()
	l.inFlight--
	l.ended = append(l.ended, l.now())
	l.wakeFirst()
	l.mu.Unlock()
}

// TryAcquire takes a place if one is free and no caller waits for one.
func (l *Limiter) TryAcquire() (done func(), ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.queue) > 0 || !l.free() {
		return nil, false
	}
	l.inFlight++
	return l.release, true
}

// SetCap makes n (0 or more) the calls that may be counted from now on:
// places already held keep being counted until they age out, so a smaller
// n lets no call start until the count is below it.
func (l *Limiter) SetCap(n int) {
	l.mu.Lock()
	l.n = max(n, 0)
	l.wakeFirst()
	l.mu.Unlock()
}

// Used is how many places are held now: calls in flight and calls ended
// within per. Waiting is how many callers wait for one.
func (l *Limiter) Used() (used, waiting int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.free()
	return l.inFlight + len(l.ended), len(l.queue)
}

// Idle reports whether the limiter promises nothing any more.
func (l *Limiter) Idle() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.inFlight == 0 && (len(l.ended) == 0 || l.now().Sub(l.ended[len(l.ended)-1]) >= l.per)
}

// Limiters is a Limiter per key (per user), dropped once idle.
type Limiters struct {
	n   int
	per time.Duration
	now func() time.Time

	mu    sync.Mutex
	byKey map[string]*Limiter
}

// NewLimiters keeps a Limiter of n calls per span of per for each key.
func NewLimiters(n int, per time.Duration, now func() time.Time) *Limiters {
	return &Limiters{n: n, per: per, now: now, byKey: make(map[string]*Limiter)}
}

// Acquire waits for a place of key's limiter, or for ctx.
func (ls *Limiters) Acquire(ctx context.Context, key string) (func(), error) {
	ls.mu.Lock()
	l, ok := ls.byKey[key]
	if !ok {
		if len(ls.byKey) >= 10_000 {
			for k, old := range ls.byKey {
				if old.Idle() {
					delete(ls.byKey, k)
				}
			}
		}
		l = NewLimiter(ls.n, ls.per, ls.now)
		ls.byKey[key] = l
	}
	ls.mu.Unlock()
	return l.Acquire(ctx)
}
