package chatapi

import (
	"context"
	"sync"
)

type commitKey struct{}

type commit struct {
	once sync.Once
	f    func() error
	err  error
}

// WithCommit is ctx carrying f, which the platform's client calls once,
// when the rate limits have given the message its place and just before
// it is sent: a replica's answer settles its task then, so an answer still
// waiting its turn when the replica dies is answered by another. When f
// fails, nothing is sent and the send returns its error.
func WithCommit(ctx context.Context, f func() error) context.Context {
	return context.WithValue(ctx, commitKey{}, &commit{f: f})
}

// WithoutCommit is ctx without its commit, for the calls a send makes
// before the message itself (a user id's conversion, a token).
func WithoutCommit(ctx context.Context) context.Context {
	return context.WithValue(ctx, commitKey{}, (*commit)(nil))
}

// Commit calls ctx's commit, the first time only; later calls return its
// first result. Without one it returns nil.
func Commit(ctx context.Context) error {
	c, _ := ctx.Value(commitKey{}).(*commit)
	if c == nil {
		return nil
	}
	c.once.Do(func() { c.err = c.f() })
	return c.err
}
