package wecom

import (
	"context"
	"time"

	"hermes/backend/chatapi"
)

// SharedToken is the access token as the replicas of a clustered bot share
// it: WeCom keeps one valid token per application and limits how often it
// is fetched.
type SharedToken = chatapi.SharedToken

// SharedLimit lets at most n calls for one key be counted in any span of
// per across the replicas, as the limiter does in one process: a call
// holds its place from its start until per after done is called.
type SharedLimit interface {
	Acquire(ctx context.Context, key string, n int, per time.Duration) (done func(), err error)
}

// ReplierFor is the replier of user, as a message of theirs would get: a
// clustered bot answers on one replica a message another one received.
func (a *App) ReplierFor(user string) Replier { return a.replier(user) }
