package cluster

import (
	"errors"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"
)

// Sessions keeps the bot sessions' records in a bucket (bot.SessionStore).
type Sessions struct{ cl *Cluster }

// Sessions returns the sessions' store.
func (cl *Cluster) Sessions() *Sessions { return &Sessions{cl} }

// Load returns the record stored under key, nil when there is none.
func (s *Sessions) Load(key string) ([]byte, error) {
	ctx, cancel := opCtx()
	defer cancel()
	e, err := s.cl.sessions.Get(ctx, keyOf(key))
	switch {
	case errors.Is(err, jetstream.ErrKeyNotFound):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	return e.Value(), nil
}

// Update stores what change makes of the record stored under key (nil for
// none). Another replica's write between the read and the write makes it
// read and change again, so no change is lost.
func (s *Sessions) Update(key string, change func(stored []byte) ([]byte, error)) error {
	ctx, cancel := opCtx()
	defer cancel()
	k := keyOf(key)
	for {
		var stored []byte
		var rev uint64
		e, err := s.cl.sessions.Get(ctx, k)
		switch {
		case err == nil:
			stored, rev = e.Value(), e.Revision()
		case !errors.Is(err, jetstream.ErrKeyNotFound):
			return fmt.Errorf("%w: %v", ErrUnavailable, err)
		}
		data, err := change(stored)
		if err != nil {
			return err
		}
		if rev == 0 {
			_, err = s.cl.sessions.Create(ctx, k, data)
		} else {
			_, err = s.cl.sessions.Update(ctx, k, data, rev)
		}
		if err == nil {
			return nil
		}
		if !conflict(err) || ctx.Err() != nil {
			return fmt.Errorf("%w: %v", ErrUnavailable, err)
		}
	}
}

// conflict reports whether err is another writer's change coming first.
func conflict(err error) bool {
	var api *jetstream.APIError
	return errors.Is(err, jetstream.ErrKeyExists) || errors.Is(err, jetstream.ErrKeyRevisionMismatch) ||
		(errors.As(err, &api) && (api.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence || api.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant))
}
