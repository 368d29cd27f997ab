package bot

import (
	"context"
	"sync"
	"time"
)

// limiter lets at most n calls be counted in any span of length per, where
// they are counted: at the far end, after a network delay that varies. A
// call holds its place from the moment it starts until per after it ends,
// so a call may start only while fewer than n are in flight or ended within
// the last per. Then no n+1 calls can arrive within per of one another,
// however long each took on the way: of any n+1, the last to start found
// the other n still holding their places.
type limiter struct {
	n   int
	per time.Duration
	now func() time.Time

	mu       sync.Mutex
	inFlight int
	ended    []time.Time   // end times within the last per, oldest first
	changed  chan struct{} // closed and replaced when a call ends
}

func newLimiter(n int, per time.Duration, now func() time.Time) *limiter {
	return &limiter{n: max(n, 1), per: per, now: now, changed: make(chan struct{})}
}

// acquire waits for a place, or for ctx. The caller calls done when the
// call has ended (its answer received, or given up on).
func (l *limiter) acquire(ctx context.Context) (done func(), err error) {
	for {
		l.mu.Lock()
		now := l.now()
		drop := 0
		for drop < len(l.ended) && now.Sub(l.ended[drop]) >= l.per {
			drop++
		}
		l.ended = l.ended[drop:]
		if l.inFlight+len(l.ended) < l.n {
			l.inFlight++
			l.mu.Unlock()
			return l.release, nil
		}
		// Wait for the oldest end to age out, or for a call to end.
		var expire <-chan time.Time
		if len(l.ended) > 0 {
			t := time.NewTimer(l.ended[0].Add(l.per).Sub(now))
			defer t.Stop()
			expire = t.C
		}
		changed := l.changed
		l.mu.Unlock()
		select {
		case <-expire:
		case <-changed:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

func (l *limiter) release() {
	l.mu.Lock()
	l.inFlight--
	l.ended = append(l.ended, l.now())
	close(l.changed)
	l.changed = make(chan struct{})
	l.mu.Unlock()
}

// idle reports whether the limiter promises nothing any more.
func (l *limiter) idle() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.inFlight == 0 && (len(l.ended) == 0 || l.now().Sub(l.ended[len(l.ended)-1]) >= l.per)
}

// limiters is a limiter per key (per user), dropped once idle.
type limiters struct {
	n   int
	per time.Duration
	now func() time.Time

	mu    sync.Mutex
	byKey map[string]*limiter
}

func newLimiters(n int, per time.Duration, now func() time.Time) *limiters {
	return &limiters{n: n, per: per, now: now, byKey: make(map[string]*limiter)}
}

func (ls *limiters) acquire(ctx context.Context, key string) (func(), error) {
	ls.mu.Lock()
	l, ok := ls.byKey[key]
	if !ok {
		if len(ls.byKey) >= 10_000 {
			for k, old := range ls.byKey {
				if old.idle() {
					delete(ls.byKey, k)
				}
			}
		}
		l = newLimiter(ls.n, ls.per, ls.now)
		ls.byKey[key] = l
	}
	ls.mu.Unlock()
	return l.acquire(ctx)
}
