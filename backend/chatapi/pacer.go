package chatapi

import (
	"context"
	"sync"
	"time"
)

// Pacer spaces the calls' starts 1/rate apart, and holds every call back
// for a while after the platform said the app calls too often.
type Pacer struct {
	every time.Duration
	mu    sync.Mutex
	next  time.Time
}

// NewPacer paces rate calls a second (at least one).
func NewPacer(rate int) *Pacer { return &Pacer{every: time.Second / time.Duration(max(rate, 1))} }

// Wait waits for the call's turn, or for ctx.
func (p *Pacer) Wait(ctx context.Context) error {
	p.mu.Lock()
	now := time.Now()
	at := p.next
	if at.Before(now) {
		at = now
	}
	p.next = at.Add(p.every)
	p.mu.Unlock()
	if d := at.Sub(now); d > 0 {
		return Sleep(ctx, d)
	}
	return nil
}

// Hold lets no call start for d from now.
func (p *Pacer) Hold(d time.Duration) {
	p.mu.Lock()
	if until := time.Now().Add(d); until.After(p.next) {
		p.next = until
	}
	p.mu.Unlock()
}
