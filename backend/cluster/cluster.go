// Package cluster is what several `hermes bot` replicas share through NATS
// JetStream, in place of what one process keeps in hermes.db: the message
// ids seen (a key-value bucket whose keys are created once, so one replica
// wins each id), the sessions' records (updated by revision, so no replica
// overwrites another's change), the WeCom access token (one replica
// fetches it, the others read it), the per-user send limit, the user-id
// conversions, and a work queue of chat tasks that exactly one replica
// takes at a time, keeps while it runs them (sending word to JetStream
// every third of the ack wait) and acknowledges when it answers; a replica
// that goes silent loses its tasks to another after the ack wait. Each
// replica taking tasks announces itself and the tasks it runs in a bucket
// whose entries age out, which ReadStatus reads with the queue's depth.
//
// It speaks only in bytes and strings: backend/bot and backend/chat
// define the seams (bot.Shared, chat.Shared…) that its types fill.
// Nothing here logs or returns the NATS token or a credential.
package cluster

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"hermes/backend/config"
	"hermes/backend/i18n"
)

// The names of what the replicas share in JetStream.
const (
	bucketSeen     = "hermes_bot_seen"
	bucketLeases   = "hermes_bot_leases"
	bucketSessions = "hermes_bot_sessions"
	bucketWeCom    = "hermes_bot_wecom"
	bucketLimits   = "hermes_bot_limits"
	// The tasks, one subject per message id (hermes.bot.inbox.<id>),
	// kept SeenFor: the first publish of an id is the one that takes it.
	streamTasks   = "HERMES_BOT_INBOX"
	subjectTasks  = "hermes.bot.inbox"
	consumerTasks = "hermes-bot"
)

// SeenFor is how long a message id is remembered: platforms resend within
// minutes, and hermes.db keeps them a day too.
const SeenFor = 24 * time.Hour

// maxDeliver bounds how often a task is handed out; one that kills every
// replica that takes it is dropped after that many tries.
const maxDeliver = 5

// Options configure a connection to the cluster.
type Options struct {
	Config config.Cluster // with its environment references resolved
	// Name is the replica's, shown to the NATS server's monitoring and by
	// `hermes bot --cluster-status`.
	Name string
	// Version is the hermes version the replica runs, for the status.
	Version string
	// AckWait overrides the config's (tests).
	AckWait time.Duration
	Now     func() time.Time
}

// Cluster is one replica's connection to the shared state.
type Cluster struct {
	nc            *nats.Conn
	js            jetstream.JetStream
	ackWait       time.Duration
	now           func() time.Time
	name, version string

	seen, sessions, wecom, limits, replicas jetstream.KeyValue
	leases                                  jetstream.KeyValue
	memory, streams                         jetstream.KeyValue
	runs                                    jetstream.ObjectStore
	tasks                                   jetstream.Consumer
	queue                                   *Tasks
}

// Open connects to the NATS servers of o.Config and makes the buckets, the
// stream and its consumer, or binds to those another replica made.
func Open(ctx context.Context, o Options) (*Cluster, error) {
	c := o.Config
	nc, err := connect(o)
	if err != nil {
		return nil, err
	}
	cl := &Cluster{nc: nc, ackWait: o.AckWait, now: o.Now, name: o.Name, version: o.Version}
	cl.queue = &Tasks{cl: cl}
	if cl.ackWait <= 0 {
		cl.ackWait = c.TaskAckWait()
	}
	if cl.now == nil {
		cl.now = time.Now
	}
	if err := cl.setup(ctx, c.StreamReplicas()); err != nil {
		nc.Close()
		return nil, i18n.Wrap(ErrSetup, "cluster.setup", err)
	}
	return cl, nil
}

func connect(o Options) (*nats.Conn, error) {
	c := o.Config
	if err := c.CheckAuth(); err != nil {
		return nil, err
	}
	opts := []nats.Option{nats.Name(o.Name), nats.MaxReconnects(-1)}
	switch {
	case c.NATSToken != "":
		opts = append(opts, nats.Token(c.NATSToken))
	case c.NATSCreds != "":
		opts = append(opts, nats.UserCredentials(c.NATSCreds))
	}
	nc, err := nats.Connect(c.NATSURL, opts...)
	if err != nil {
		return nil, i18n.Wrap(ErrConnect, "cluster.connect", err)
	}
	return nc, nil
}

func (cl *Cluster) setup(ctx context.Context, replicas int) error {
	js, err := jetstream.New(cl.nc)
	if err != nil {
		return err
	}
	cl.js = js
	kv := func(name string, ttl time.Duration, markers time.Duration) (jetstream.KeyValue, error) {
		// Markers: per-key TTLs (a lock that outlives a dead holder by
		// seconds), and a tombstone watchers see when a key ages out.
		cfg := jetstream.KeyValueConfig{Bucket: name, TTL: ttl, History: 1, Replicas: replicas, Storage: jetstream.FileStorage, LimitMarkerTTL: markers}
		return js.CreateOrUpdateKeyValue(ctx, cfg)
	}
	if cl.seen, err = kv(bucketSeen, SeenFor, 0); err != nil {
		return err
	}
	if cl.leases, err = kv(bucketLeases, SeenFor, 0); err != nil {
		return err
	}
	if cl.sessions, err = kv(bucketSessions, 0, 0); err != nil {
		return err
	}
	if cl.wecom, err = kv(bucketWeCom, 0, time.Minute); err != nil {
		return err
	}
	if cl.limits, err = kv(bucketLimits, 0, 0); err != nil {
		return err
	}
	if cl.replicas, err = kv(bucketReplicas, cl.replicaTTL(), cl.replicaTTL()); err != nil {
		return err
	}
	if cl.memory, err = kv(bucketMemory, 0, 0); err != nil {
		return err
	}
	if cl.streams, err = kv(bucketStreams, streamsFor, 0); err != nil {
		return err
	}
	if cl.runs, err = js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{
		Bucket: bucketRuns, TTL: RunsKeptFor, Storage: jetstream.FileStorage, Replicas: replicas,
	}); err != nil {
		return err
	}
	// Not a work queue: an acknowledged task stays until SeenFor is over,
	// as the record that its message id was taken (Tasks.Publish).
	if _, err = js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: streamTasks, Subjects: []string{subjectTasks + ".>"}, Retention: jetstream.LimitsPolicy,
		MaxAge: SeenFor, MaxMsgsPerSubject: 1, Storage: jetstream.FileStorage, Replicas: replicas,
	}); err != nil {
		return err
	}
	cl.tasks, err = js.CreateOrUpdateConsumer(ctx, streamTasks, jetstream.ConsumerConfig{
		Durable: consumerTasks, AckPolicy: jetstream.AckExplicitPolicy, AckWait: cl.ackWait,
		MaxDeliver: maxDeliver, MaxAckPending: 100_000, Replicas: replicas,
	})
	return err
}

// Close drops the connection. Tasks this replica took and did not settle
// go to another replica once their ack wait is over.
func (cl *Cluster) Close() { cl.nc.Close() }

// keyOf is s as a key JetStream accepts (letters, digits, - and _).
func keyOf(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

// opCtx bounds one call to JetStream made on a caller's behalf.
func opCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 10*time.Second)
}

// Seen is the cluster's memory of the message ids seen (bot.Dedupe).
type Seen struct{ cl *Cluster }

// Seen returns the dedupe of message ids.
func (cl *Cluster) Seen() *Seen { return &Seen{cl} }

// First creates key in the bucket and reports whether this call made it:
// of every replica asked about one id, exactly one is told true. An error
// (NATS unreachable) is neither: the callback is refused and resent.
func (s *Seen) First(key string) (bool, error) {
	ctx, cancel := opCtx()
	defer cancel()
	_, err := s.cl.seen.Create(ctx, keyOf(key), []byte(s.cl.now().UTC().Format(time.RFC3339)))
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, jetstream.ErrKeyExists):
		return false, nil
	}
	return false, fmt.Errorf("%w: %v", ErrUnavailable, err)
}
