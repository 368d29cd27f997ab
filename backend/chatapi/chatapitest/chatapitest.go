// Package chatapitest holds what the chat platforms' stand-ins
// (wecomtest, feishutest) share: waiting on their state without a timer,
// and counting calls against a per-second limit. Like them it is for tests;
// production code never imports it.
package chatapitest

import (
	"context"
	"sync"
	"time"
)

// Changes wakes the callers waiting for a stand-in's state to change. The
// zero Changes is ready.
type Changes struct {
	ch chan struct{} // closed on the next Notify
}

// Notify wakes every waiter; call it with the stand-in's mutex held.
func (c *Changes) Notify() {
	if c.ch != nil {
		close(c.ch)
		c.ch = nil
	}
}

// Wait blocks until cond, called with mu held, returns true, or ctx is
// done. It wakes on each Notify, never on a timer.
func (c *Changes) Wait(ctx context.Context, mu sync.Locker, cond func() bool) error {
	for {
		mu.Lock()
		ok := cond()
		if c.ch == nil {
			c.ch = make(chan struct{})
		}
		changed := c.ch
		mu.Unlock()
		if ok {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Window counts the calls that arrived within the last second, as a
// platform's per-second rate limit counts them. The zero Window is ready;
// it is not safe for concurrent use (the stand-in's mutex guards it).
type Window struct {
	arrivals []time.Time // within the last second, oldest first
}

// Arrive counts a call arriving now and returns how many arrived within the
// last second, this one included.
func (w *Window) Arrive() int {
	now := time.Now()
	cut := 0
	for cut < len(w.arrivals) && now.Sub(w.arrivals[cut]) >= time.Second {
		cut++
	}
	w.arrivals = append(w.arrivals[cut:], now)
	return len(w.arrivals)
}
