package chatapi

import (
	"context"
	"time"
)

// SharedLimits lets at most n calls for one key be counted in any span of
// per across the replicas of a clustered bot, as a Limiters does in one
// process: a call holds its place from its start until per after done is
// called.
type SharedLimits interface {
	Acquire(ctx context.Context, key string, n int, per time.Duration) (done func(), err error)
}

// UserIDCache keeps the user-id conversions an API client made, across
// restarts and, for a clustered bot, for every replica; *store.Store is
// one.
type UserIDCache interface {
	CachedUserID(key string) (string, bool, error)
	CacheUserID(key, userID string) error
}
