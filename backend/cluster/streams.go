package cluster

import (
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// bucketStreams holds the WeCom intelligent bot's stream replies, so that
// any replica answers WeCom's requests for more of one; a stream is kept
// streamsFor after its last change, as long as WeCom asks for it.
const (
	bucketStreams = "hermes_bot_streams"
	streamsFor    = 30 * time.Minute
)

// Streams are the intelligent bot's stream replies as the replicas share
// them (chat.Streams).
type Streams struct{ cl *Cluster }

// Streams returns the shared stream replies.
func (cl *Cluster) Streams() *Streams { return &Streams{cl} }

// Load is the reply stored under id, nil when there is none.
func (s *Streams) Load(id string) ([]byte, error) {
	ctx, cancel := opCtx()
	defer cancel()
	e, err := s.cl.streams.Get(ctx, keyOf(id))
	switch {
	case errors.Is(err, jetstream.ErrKeyNotFound):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	return e.Value(), nil
}

// Store keeps data as the reply under id.
func (s *Streams) Store(id string, data []byte) error {
	ctx, cancel := opCtx()
	defer cancel()
	if _, err := s.cl.streams.Put(ctx, keyOf(id), data); err != nil {
		return fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	return nil
}
