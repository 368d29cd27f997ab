package cluster

import (
	"errors"
	"time"

	"github.com/nats-io/nats.go"
)

// A chat user's message is a task any replica may take, while the user's
// run lives on the replica that started it. That replica answers on a
// subject of the user's session for as long as the run is live, so a
// replica taking "/stop" reaches the run without knowing where it is: a
// request no replica serves fails at once (no responders), and the run is
// live nowhere.
//
//	hermes.bot.steer.<session>  request: a command for the session's live run
func steerSubject(key string) string { return "hermes.bot.steer." + keyOf(key) }

// steerTimeout bounds a request to the replica serving a session: it
// answers from memory, queueing the control for its run.
const steerTimeout = 5 * time.Second

// Steering carries commands to the replica where a session's run is live
// (bot.Steering).
type Steering struct{ cl *Cluster }

// Steering returns the seam to a session's live run on any replica.
func (cl *Cluster) Steering() *Steering { return &Steering{cl} }

// Serve answers the requests for session key with handle until stop. The
// subscription is known to the server when Serve returns, so a request
// sent after it is answered here.
func (s *Steering) Serve(key string, handle func(req []byte) []byte) (stop func(), err error) {
	sub, err := s.cl.nc.Subscribe(steerSubject(key), func(m *nats.Msg) {
		_ = m.Respond(handle(m.Data)) // a requester that left behaves as if none served
	})
	if err != nil {
		return nil, errors.Join(ErrUnavailable, err)
	}
	if err := s.cl.nc.FlushTimeout(steerTimeout); err != nil {
		_ = sub.Unsubscribe()
		return nil, errors.Join(ErrUnavailable, err)
	}
	return func() {
		// Known to the server before the run's end is told, so that a
		// command sent after it is not held for steerTimeout by a
		// subscription the server still counts.
		if sub.Unsubscribe() == nil {
			_ = s.cl.nc.FlushTimeout(time.Second)
		}
	}, nil
}

// Ask sends req to the replica serving session key and returns its reply;
// served is false when no replica serves it. An error is a replica that
// serves it and did not answer, or NATS out of reach.
func (s *Steering) Ask(key string, req []byte) (reply []byte, served bool, err error) {
	m, err := s.cl.nc.Request(steerSubject(key), req, steerTimeout)
	switch {
	case errors.Is(err, nats.ErrNoResponders):
		return nil, false, nil
	case err != nil:
		return nil, false, errors.Join(ErrReplicaGone, err)
	}
	return m.Data, true, nil
}
