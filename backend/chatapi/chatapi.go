// Package chatapi is what every chat platform's API client needs: the
// access token cached and fetched once however many callers need it, calls
// paced and retried with backoff, replies split to the platform's size.
// backend/wecom and backend/feishu build on it; it knows no platform.
package chatapi

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"net/url"
	"time"
)

// MaxAttempts bounds the tries of one call, the first included.
const MaxAttempts = 6

// Backoff is the default wait before retry n (1, 2, …): 200 ms doubling,
// with jitter, up to 5 s.
func Backoff(n int) time.Duration {
	d := min(200*time.Millisecond<<(n-1), 5*time.Second)
	return d/2 + rand.N(d/2+1)
}

// Try is what one try of a call came to.
type Try struct {
	Err   error // the call's error; it stands if no other try follows
	Again bool  // another try may help: the platform was busy or unreachable
	// Wait is how long the platform said to wait before the next try;
	// 0: the backoff.
	Wait time.Duration
	// Hold, when set, is told the wait before it starts, so that a pacer
	// holds every call back, not only this one.
	Hold func(time.Duration)
}

// Retry runs try until it needs no other, MaxAttempts tries in all or
// until ctx is done, waiting between tries; the last try's error stands.
func Retry(ctx context.Context, backoff func(n int) time.Duration, try func() Try) error {
	for n := 1; ; n++ {
		r := try()
		if !r.Again || n == MaxAttempts || ctx.Err() != nil {
			return r.Err
		}
		wait := r.Wait
		if wait <= 0 {
			wait = backoff(n)
		}
		if r.Hold != nil {
			r.Hold(wait)
		}
		if err := Sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// Sleep waits for d, or for ctx.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Do sends req with c. Its error never holds the request's address, which
// may carry an access token or a secret.
func Do(c *http.Client, req *http.Request) (*http.Response, error) {
	resp, err := c.Do(req)
	if ue := (*url.Error)(nil); errors.As(err, &ue) {
		err = ue.Err
	}
	return resp, err
}
