package wecom

import (
	"context"
	"time"
)

// SharedToken is the access token as the replicas of a clustered bot share
// it (backend/cluster is one): WeCom keeps one valid token per application
// and limits how often it is fetched, so one replica fetches it and the
// others read it.
type SharedToken interface {
	// Token returns the shared token and when to renew it, calling fetch
	// (on one replica at a time) when there is none valid.
	Token(ctx context.Context, fetch func(context.Context) (string, time.Time, error)) (string, time.Time, error)
	// Drop forgets token after WeCom refused it, unless another replica
	// has replaced it already.
	Drop(token string)
}

// SharedLimit lets at most n calls for one key be counted in any span of
// per across the replicas, as the limiter does in one process: a call
// holds its place from its start until per after done is called.
type SharedLimit interface {
	Acquire(ctx context.Context, key string, n int, per time.Duration) (done func(), err error)
}

// ReplierFor is the replier of user, as a message of theirs would get: a
// clustered bot answers on one replica a message another one received.
func (a *App) ReplierFor(user string) Replier { return a.replier(user) }
