package chatapi

import (
	"context"
	"sync"
	"time"
)

// Token is an access token cached until it is due for renewal and fetched
// once however many callers need it at the same moment.
type Token struct {
	now func() time.Time

	mu      sync.Mutex
	token   string
	renewAt time.Time
	fetches Flight[string]
}

// NewToken returns an empty cache; now nil means time.Now.
func NewToken(now func() time.Time) *Token {
	if now == nil {
		now = time.Now
	}
	return &Token{now: now}
}

// Get returns the cached token, or calls fetch, once for all who ask
// meanwhile, for a token and when to renew it (RenewAt).
func (t *Token) Get(ctx context.Context, fetch func(context.Context) (string, time.Time, error)) (string, error) {
	if tok, ok := t.cached(); ok {
		return tok, nil
	}
	return t.fetches.Do(ctx, "token", func(ctx context.Context) (string, error) {
		// A caller that found no token may get here just after another's
		// fetch ended: it takes that token rather than fetch a second.
		if tok, ok := t.cached(); ok {
			return tok, nil
		}
		tok, renewAt, err := fetch(ctx)
		if err != nil {
			return "", err
		}
		t.mu.Lock()
		t.token, t.renewAt = tok, renewAt
		t.mu.Unlock()
		return tok, nil
	})
}

func (t *Token) cached() (string, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.token, t.token != "" && t.now().Before(t.renewAt)
}

// Drop forgets tok after the platform refused it; a newer token another
// caller already fetched is kept, so a burst of refusals refreshes once.
func (t *Token) Drop(tok string) {
	t.mu.Lock()
	if t.token == tok {
		t.token = ""
	}
	t.mu.Unlock()
}

// RenewAt is when to renew a token that, from now, lives for life: a
// little early (a tenth of its life, 5 minutes at most), so that a token
// never expires on its way to the platform.
func RenewAt(now time.Time, life time.Duration) time.Time {
	return now.Add(life - min(life/10, 5*time.Minute))
}

// SharedToken is an access token as the replicas of a clustered bot share
// it (backend/cluster is one): a platform keeps one valid token per app and
// limits how often it is fetched, so one replica fetches it and the others
// read it.
type SharedToken interface {
	// Token returns the shared token and when to renew it, calling fetch
	// (on one replica at a time) when there is none valid.
	Token(ctx context.Context, fetch func(context.Context) (string, time.Time, error)) (string, time.Time, error)
	// Drop forgets token after the platform refused it, unless another
	// replica has replaced it already.
	Drop(token string)
}
