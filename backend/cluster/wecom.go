package cluster

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// lockFor is how long a replica may take to fetch the access token before
// another one may try; a replica that dies holding the lock holds it no
// longer than that.
const lockFor = 30 * time.Second

// Token is the access token of one application of a chat platform, shared
// by the replicas (chatapi.SharedToken).
type Token struct {
	cl                  *Cluster
	prefix, token, lock string
}

// Token returns the shared access token of the application named app
// (such as corp id and agent id).
func (cl *Cluster) Token(app string) *Token {
	p := "token." + keyOf(app)
	return &Token{cl: cl, prefix: p, token: p + ".value", lock: p + ".lock"}
}

type storedToken struct {
	Token   string    `json:"token"`
	Expires time.Time `json:"expires"`
}

// Token returns the stored token while it is valid. Otherwise the replica
// that creates the lock fetches one and stores it; the others wait for it.
func (t *Token) Token(ctx context.Context, fetch func(context.Context) (string, time.Time, error)) (string, time.Time, error) {
	kv := t.cl.wecom
	w, err := kv.Watch(ctx, t.prefix+".*", jetstream.UpdatesOnly())
	if err != nil {
		return "", time.Time{}, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	defer w.Stop()
	for {
		if st, _, err := t.read(ctx); err != nil {
			return "", time.Time{}, err
		} else if st.Token != "" && t.cl.now().Before(st.Expires) {
			return st.Token, st.Expires, nil
		}
		_, err := kv.Create(ctx, t.lock, nil, jetstream.KeyTTL(lockFor))
		if err == nil {
			return t.fetch(ctx, fetch)
		}
		if !conflict(err) {
			return "", time.Time{}, fmt.Errorf("%w: %v", ErrUnavailable, err)
		}
		// Another replica fetches: its token, or its lock going, wakes us.
		select {
		case <-w.Updates():
		case <-ctx.Done():
			return "", time.Time{}, ctx.Err()
		}
	}
}

func (t *Token) fetch(ctx context.Context, fetch func(context.Context) (string, time.Time, error)) (string, time.Time, error) {
	defer func() { _ = t.cl.wecom.Delete(context.WithoutCancel(ctx), t.lock) }() // or it goes at lockFor
	// The lock may be taken just after another replica stored its token.
	if st, _, err := t.read(ctx); err == nil && st.Token != "" && t.cl.now().Before(st.Expires) {
		return st.Token, st.Expires, nil
	}
	tok, expires, err := fetch(ctx)
	if err != nil {
		return "", time.Time{}, err
	}
	data, _ := json.Marshal(storedToken{Token: tok, Expires: expires})
	if _, err := t.cl.wecom.Put(ctx, t.token, data); err != nil {
		// This replica uses it anyway; another fetches its own.
		return tok, expires, nil
	}
	return tok, expires, nil
}

func (t *Token) read(ctx context.Context) (storedToken, uint64, error) {
	var st storedToken
	e, err := t.cl.wecom.Get(ctx, t.token)
	switch {
	case errors.Is(err, jetstream.ErrKeyNotFound):
		return st, 0, nil
	case err != nil:
		return st, 0, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	if json.Unmarshal(e.Value(), &st) != nil {
		return storedToken{}, e.Revision(), nil
	}
	return st, e.Revision(), nil
}

// Drop forgets token unless another replica stored a newer one.
func (t *Token) Drop(token string) {
	ctx, cancel := opCtx()
	defer cancel()
	if st, rev, err := t.read(ctx); err == nil && rev != 0 && st.Token == token {
		_ = t.cl.wecom.Delete(ctx, t.token, jetstream.LastRevision(rev)) // kept, it is refused and dropped again
	}
}

// UserIDs keeps WeCom's user-id conversions for every replica
// (chatapi.UserIDCache), so each id is converted once for the cluster.
type UserIDs struct{ cl *Cluster }

// UserIDs returns the shared conversions.
func (cl *Cluster) UserIDs() *UserIDs { return &UserIDs{cl} }

// CachedUserID is the user id converted for key, if a replica stored one.
func (u *UserIDs) CachedUserID(key string) (string, bool, error) {
	ctx, cancel := opCtx()
	defer cancel()
	e, err := u.cl.wecom.Get(ctx, "uid."+keyOf(key))
	switch {
	case errors.Is(err, jetstream.ErrKeyNotFound):
		return "", false, nil
	case err != nil:
		return "", false, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	return string(e.Value()), true, nil
}

// CacheUserID stores the user id converted for key for every replica.
func (u *UserIDs) CacheUserID(key, userID string) error {
	ctx, cancel := opCtx()
	defer cancel()
	if _, err := u.cl.wecom.Put(ctx, "uid."+keyOf(key), []byte(userID)); err != nil {
		return fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	return nil
}

// Limits holds per-key call limits across the replicas
// (chatapi.SharedLimits): a key's places are a list in one bucket entry,
// changed by revision.
type Limits struct{ cl *Cluster }

// Limits returns the shared limits.
func (cl *Cluster) Limits() *Limits { return &Limits{cl} }

// place is one call's hold on a key's limit: from Start until per after
// End; End is zero while the call is under way.
type place struct {
	ID    string `json:"id"`
	Start int64  `json:"start"` // unix nanoseconds
	End   int64  `json:"end,omitempty"`
}

// Acquire waits until fewer than n calls of key are under way or ended
// within per, on any replica, and takes a place.
func (l *Limits) Acquire(ctx context.Context, key string, n int, per time.Duration) (func(), error) {
	k := "limit." + keyOf(key)
	raw := make([]byte, 8)
	rand.Read(raw)
	id := hex.EncodeToString(raw)
	for {
		now := l.cl.now().UnixNano()
		var wait time.Duration
		err := l.change(ctx, k, func(ps []place) ([]place, bool) {
			wait = 0
			ps = live(ps, now, per)
			if len(ps) < max(n, 1) {
				return append(ps, place{ID: id, Start: now}), true
			}
			// A place frees per after the oldest end; a call under way
			// frees one no sooner than per from now.
			wait = per
			for _, p := range ps {
				if p.End != 0 {
					wait = min(wait, time.Duration(p.End+int64(per)-now))
				}
			}
			return nil, false
		})
		if err != nil {
			return nil, err
		}
		if wait == 0 {
			return func() { l.end(k, id, per) }, nil
		}
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		}
	}
}

// end marks the call id ended now.
func (l *Limits) end(k, id string, per time.Duration) {
	ctx, cancel := opCtx()
	defer cancel()
	now := l.cl.now().UnixNano()
	// A place not marked ended is let go at twice per (live).
	_ = l.change(ctx, k, func(ps []place) ([]place, bool) {
		ps = live(ps, now, per)
		for i := range ps {
			if ps[i].ID == id {
				ps[i].End = now
			}
		}
		return ps, true
	})
}

// live are the places still held at now. A call under way for twice per
// belonged to a replica that died: it holds no more.
func live(ps []place, now int64, per time.Duration) []place {
	out := ps[:0]
	for _, p := range ps {
		if (p.End != 0 && now-p.End < int64(per)) || (p.End == 0 && now-p.Start < 2*int64(per)) {
			out = append(out, p)
		}
	}
	return out
}

// change applies f to key's places and writes them if f says so, again
// when another replica wrote first.
func (l *Limits) change(ctx context.Context, k string, f func([]place) ([]place, bool)) error {
	for {
		var ps []place
		var rev uint64
		e, err := l.cl.limits.Get(ctx, k)
		switch {
		case err == nil:
			rev = e.Revision()
			_ = json.Unmarshal(e.Value(), &ps) // unreadable, it holds no place; this write replaces it
		case !errors.Is(err, jetstream.ErrKeyNotFound):
			return fmt.Errorf("%w: %v", ErrUnavailable, err)
		}
		next, write := f(ps)
		if !write {
			return nil
		}
		data, _ := json.Marshal(next)
		if rev == 0 {
			_, err = l.cl.limits.Create(ctx, k, data)
		} else {
			_, err = l.cl.limits.Update(ctx, k, data, rev)
		}
		if err == nil {
			return nil
		}
		if !conflict(err) || ctx.Err() != nil {
			return fmt.Errorf("%w: %v", ErrUnavailable, err)
		}
	}
}
