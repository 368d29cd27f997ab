package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"hermes/backend/api"
	"hermes/backend/i18n"
)

// bucketReplicas holds each replica's announcement, refreshed every beat;
// its keys age out after a few beats, so a replica that died without a word
// leaves the list (a marker tells the watchers).
const bucketReplicas = "hermes_bot_replicas"

// Replica is what a replica taking tasks announces of itself: the
// announcement is what GET /api/cluster shows of it.
type Replica = api.ClusterReplica

// HeldTask is a task a replica runs.
type HeldTask = api.ClusterTask

// Queue is the work queue's depth: queued, no replica has taken them
// (Waiting); taken and not acknowledged (Running); of those, handed out
// more than once (Redelivered).
type Queue = api.ClusterQueue

// Status is the cluster as `hermes bot --cluster-status` shows it.
type Status struct {
	Replicas []Replica `json:"replicas"`
	Queue    Queue     `json:"queue"`
}

// replicaKey is the key of this process's announcement.
func replicaKey() (string, string) {
	host, _ := os.Hostname()
	id := fmt.Sprintf("%s/%d", host, os.Getpid())
	return host, id
}

// announcer keeps this replica's announcement current while it takes tasks.
type announcer struct {
	cl   *Cluster
	key  string
	mu   sync.Mutex
	me   Replica
	held map[uint64]HeldTask
	poke chan struct{}
}

func (cl *Cluster) newAnnouncer() *announcer {
	host, id := replicaKey()
	if cl.name != "" {
		id = cl.name
	}
	return &announcer{
		cl: cl, key: keyOf(id), held: map[uint64]HeldTask{}, poke: make(chan struct{}, 1),
		me: Replica{ID: id, Host: host, PID: os.Getpid(), Version: cl.version, Started: cl.now().UTC(), Tasks: []HeldTask{}},
	}
}

// took records a task this replica runs; the returned func drops it.
func (a *announcer) took(seq uint64, data []byte) func() {
	// The task's bytes are backend/bot's; only who sent it is read here.
	var t struct {
		User string `json:"user"`
		ID   string `json:"id"`
	}
	_ = json.Unmarshal(data, &t)
	a.mu.Lock()
	a.held[seq] = HeldTask{User: t.User, ID: t.ID, Seq: seq, Started: a.cl.now().UTC()}
	a.mu.Unlock()
	a.touch()
	return func() {
		a.mu.Lock()
		delete(a.held, seq)
		a.mu.Unlock()
		a.touch()
	}
}

func (a *announcer) touch() {
	select {
	case a.poke <- struct{}{}:
	default:
	}
}

// run announces the replica every beat and at each change until stop is
// closed, then withdraws the announcement.
func (a *announcer) run(stop <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	tick := time.NewTicker(a.cl.beat())
	defer tick.Stop()
	for {
		a.put()
		select {
		case <-tick.C:
		case <-a.poke:
			// Under load tasks come and go in bursts, and each announcement
			// writes every task held: one per announceGap says a burst.
			select {
			case <-time.After(announceGap):
			case <-stop: // withdrawn at the next turn
			}
		case <-stop:
			ctx, cancel := opCtx()
			defer cancel()
			_ = a.cl.replicas.Delete(ctx, a.key) // one left goes at replicaTTL
			return
		}
	}
}

// announceGap is the least time between two announcements of changes.
const announceGap = 250 * time.Millisecond

func (a *announcer) put() {
	a.mu.Lock()
	a.me.LastSeen = a.cl.now().UTC()
	a.me.Tasks = a.me.Tasks[:0]
	for _, t := range a.held {
		a.me.Tasks = append(a.me.Tasks, t)
	}
	sort.Slice(a.me.Tasks, func(i, j int) bool { return a.me.Tasks[i].Seq < a.me.Tasks[j].Seq })
	data, err := json.Marshal(a.me)
	a.mu.Unlock()
	if err != nil {
		return
	}
	ctx, cancel := opCtx()
	defer cancel()
	_, _ = a.cl.replicas.Put(ctx, a.key, data) // a missed beat is made up by the next
}

// beat is how often a replica announces itself: as often as it tells
// JetStream it still works on a task.
func (cl *Cluster) beat() time.Duration { return cl.ackWait / 3 }

// replicaTTL is how long an announcement outlives its replica's last beat.
func (cl *Cluster) replicaTTL() time.Duration { return max(3*cl.beat(), time.Second) }

// ReadStatus connects to the cluster of o.Config and reads its replicas and
// its queue, without making anything or announcing itself.
func ReadStatus(ctx context.Context, o Options) (Status, error) {
	nc, err := connect(o)
	if err != nil {
		return Status{}, err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return Status{}, i18n.Wrap(ErrSetup, "cluster.setup", err)
	}
	return readStatus(ctx, js)
}

// readStatus reads the replicas and the queue through js.
func readStatus(ctx context.Context, js jetstream.JetStream) (Status, error) {
	st := Status{Replicas: []Replica{}}
	kv, err := js.KeyValue(ctx, bucketReplicas)
	switch {
	case errors.Is(err, jetstream.ErrBucketNotFound):
	case err != nil:
		return st, i18n.Wrap(ErrUnavailable, "cluster.status", err)
	default:
		if st.Replicas, err = readReplicas(ctx, kv); err != nil {
			return st, i18n.Wrap(ErrUnavailable, "cluster.status", err)
		}
	}
	cons, err := js.Consumer(ctx, streamTasks, consumerTasks)
	switch {
	case errors.Is(err, jetstream.ErrStreamNotFound), errors.Is(err, jetstream.ErrConsumerNotFound):
	case err != nil:
		return st, i18n.Wrap(ErrUnavailable, "cluster.status", err)
	default:
		info, err := cons.Info(ctx)
		if err != nil {
			return st, i18n.Wrap(ErrUnavailable, "cluster.status", err)
		}
		st.Queue = Queue{Waiting: info.NumPending, Running: info.NumAckPending, Redelivered: info.NumRedelivered}
	}
	return st, nil
}

func readReplicas(ctx context.Context, kv jetstream.KeyValue) ([]Replica, error) {
	w, err := kv.WatchAll(ctx, jetstream.IgnoreDeletes())
	if err != nil {
		return nil, err
	}
	defer w.Stop()
	out := []Replica{}
	for e := range w.Updates() {
		if e == nil {
			break // the values there were are all read
		}
		var r Replica
		if json.Unmarshal(e.Value(), &r) == nil {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}
