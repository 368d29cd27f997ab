package cluster

import "errors"

var (
	// ErrConnect is returned when no NATS server of [cluster] nats_url
	// answers or it refuses the credentials.
	ErrConnect = errors.New("cannot connect to NATS; check [cluster] nats_url and nats_token_env or nats_creds, and that the servers run with JetStream")
	// ErrSetup is returned when JetStream refuses to make or bind the bot's
	// buckets, stream or consumer.
	ErrSetup = errors.New("JetStream refused the bot's buckets or stream; check that the servers run with JetStream (-js) and that [cluster] replicas is no more than the servers")
	// ErrUnavailable is returned when JetStream does not answer a call; the
	// callback that needed it is refused, so the platform resends it.
	ErrUnavailable = errors.New("JetStream did not answer; the platform will resend the message")
	// ErrLeaseLost is returned when a task's acknowledgement is refused: it
	// has been given to another replica, which answers it.
	ErrLeaseLost = errors.New("task no longer held by this replica")
	// ErrReplicaGone is returned when the replica that runs a run does not
	// answer a request for it: it stopped, or NATS cannot reach it.
	ErrReplicaGone = errors.New("the replica that runs this run does not answer")
)
