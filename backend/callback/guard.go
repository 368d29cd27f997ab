// Package callback holds the checks every chat platform's callback gets
// before its content is trusted: a bounded body, a fresh timestamp, a nonce
// not seen before, and the errors that refuse one. backend/wecom and the
// bot's generic webhook use them; a new platform (Feishu, say) does too.
package callback

import (
	"fmt"
	"strconv"
	"sync"
	"time"
)

// clockSkew is how far a callback's timestamp may be from this machine's
// clock; a captured request replayed later than this is refused as stale.
const clockSkew = 5 * time.Minute

// maxNonces bounds the replay guard's memory. Only callbacks with a valid
// signature are recorded, so reaching it means a flood from someone who
// holds the token; the oldest nonces are then forgotten first.
const maxNonces = 200_000

// Guard refuses a callback whose timestamp is stale or whose nonce was
// seen within the skew window. Nonces older than the window need not be
// kept: their timestamps are refused as stale anyway.
type Guard struct {
	now   func() time.Time
	mu    sync.Mutex
	seen  map[string]time.Time // nonce -> when it expires
	order []nonceAt            // insertion order, for expiry
}

type nonceAt struct {
	nonce   string
	expires time.Time
}

// NewGuard returns a guard that reads the time from now.
func NewGuard(now func() time.Time) *Guard {
	return &Guard{now: now, seen: make(map[string]time.Time)}
}

// Fresh checks timestamp (Unix seconds) alone, for requests that may be
// repeated (URL verification).
func (g *Guard) Fresh(timestamp string) error {
	sec, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil {
		return fmt.Errorf("%w: timestamp %q is not a number", ErrMalformed, timestamp)
	}
	return g.FreshAt(time.Unix(sec, 0))
}

// FreshAt checks a time a callback carries in a form of its platform's own
// (an event's creation time in milliseconds, say).
func (g *Guard) FreshAt(t time.Time) error {
	d := g.now().Sub(t)
	if d > clockSkew || d < -clockSkew {
		return fmt.Errorf("%w: %s away from this machine's clock", ErrStale, d.Round(time.Second))
	}
	return nil
}

// Check checks the timestamp and records the nonce, refusing one already
// recorded. Call it only after the signature is verified.
func (g *Guard) Check(timestamp, nonce string) error {
	if err := g.Fresh(timestamp); err != nil {
		return err
	}
	if nonce == "" {
		return fmt.Errorf("%w: no nonce", ErrMalformed)
	}
	now := g.now()
	g.mu.Lock()
	defer g.mu.Unlock()
	g.expire(now)
	if exp, ok := g.seen[nonce]; ok && now.Before(exp) {
		return ErrReplay
	}
	exp := now.Add(2 * clockSkew)
	g.seen[nonce] = exp
	g.order = append(g.order, nonceAt{nonce, exp})
	return nil
}

func (g *Guard) expire(now time.Time) {
	i := 0
	for ; i < len(g.order); i++ {
		n := g.order[i]
		if now.Before(n.expires) && len(g.order)-i <= maxNonces {
			break
		}
		if g.seen[n.nonce].Equal(n.expires) {
			delete(g.seen, n.nonce)
		}
	}
	// The dropped head is reclaimed when append next grows the slice.
	g.order = g.order[i:]
}
