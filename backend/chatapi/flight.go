package chatapi

import (
	"context"
	"sync"
)

// Flight runs one call per key at a time and hands its result to every
// caller that asked meanwhile, so many requests that need a fresh access
// token (or one user's id) at the same moment cause one API call. The zero
// Flight is ready.
type Flight[T any] struct {
	mu    sync.Mutex
	calls map[string]*flightCall[T]
}

type flightCall[T any] struct {
	done chan struct{}
	val  T
	err  error
}

// Do runs fn for key unless a call for key is under way, and waits for the
// result or ctx. fn runs detached from any one caller's cancellation, since
// others wait on it too.
func (f *Flight[T]) Do(ctx context.Context, key string, fn func(context.Context) (T, error)) (T, error) {
	f.mu.Lock()
	if f.calls == nil {
		f.calls = make(map[string]*flightCall[T])
	}
	c, ok := f.calls[key]
	if !ok {
		c = &flightCall[T]{done: make(chan struct{})}
		f.calls[key] = c
		go func() {
			c.val, c.err = fn(context.WithoutCancel(ctx))
			f.mu.Lock()
			delete(f.calls, key)
			f.mu.Unlock()
			close(c.done)
		}()
	}
	f.mu.Unlock()
	select {
	case <-c.done:
		return c.val, c.err
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}
