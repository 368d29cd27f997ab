package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"hermes/backend/agent"
	"hermes/backend/config"
	"hermes/backend/event"
	"hermes/backend/runapi"
	"hermes/backend/runner"
)

// checkEvery is how often a relayed run with no news asks its replica
// whether it still runs: a replica that died sends no end.
const checkEvery = 5 * time.Second

// Observer is a window's or `hermes serve`'s view of the cluster: it takes
// no tasks and announces nothing; it lists the runs the replicas serve
// (ServeRuns), relays their events and sends them controls.
type Observer struct {
	nc    *nats.Conn
	js    jetstream.JetStream
	feeds runapi.Feeds // the replicas' runs' summary changes
	bus   *event.Bus   // the events of the followed runs
	sub   *nats.Subscription

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu        sync.Mutex
	owner     map[string]string // run id → the replica that runs it
	heard     []string          // owner's keys, oldest first
	relays    map[string]*relay
	followAll bool
}

// Observe connects to the cluster of o.Config as an observer.
func Observe(o Options) (*Observer, error) {
	nc, err := connect(o)
	if err != nil {
		return nil, err
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, errors.Join(ErrSetup, err)
	}
	cctx, cancel := context.WithCancel(context.Background())
	ob := &Observer{nc: nc, js: js, bus: event.NewBus(), ctx: cctx, cancel: cancel,
		owner: map[string]string{}, relays: map[string]*relay{}}
	ob.sub, err = nc.Subscribe(subjectSummaries, ob.summary)
	if err == nil {
		err = nc.FlushTimeout(requestTimeout)
	}
	if err != nil {
		ob.Close()
		return nil, errors.Join(ErrUnavailable, err)
	}
	return ob, nil
}

// ObserveHome attaches to the cluster of home's [cluster] nats_url as an
// observer, for the host of the window and `hermes serve`
// (host.Options.Cluster): nil without one. A hermes.toml that cannot be
// read attaches to none; the home's notices say what is wrong with it.
func ObserveHome(home string, getenv func(string) string, name, version string) (*Observer, error) {
	cfg, err := config.Load(config.Path(home))
	if err != nil {
		return nil, nil
	}
	cfg = cfg.ResolveEnv(getenv)
	if !cfg.Cluster.Enabled() {
		return nil, nil
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return Observe(Options{Config: cfg.Cluster, Name: name, Version: version})
}

// Close ends the relays (their watchers get what came, then the end) and
// drops the connection.
func (ob *Observer) Close() {
	// Under the lock, so that no relay starts after the cancel; the
	// connection goes first, so that requests under way fail at once.
	ob.mu.Lock()
	ob.cancel()
	ob.mu.Unlock()
	ob.nc.Close()
	ob.wg.Wait()
}

// Status reads the replicas and the queue, as ReadStatus does.
func (ob *Observer) Status(ctx context.Context) (Status, error) { return readStatus(ctx, ob.js) }

// summary hears of a change of a replica's run.
func (ob *Observer) summary(m *nats.Msg) {
	var s runner.Summary
	if json.Unmarshal(m.Data, &s) != nil || s.Replica == "" {
		return
	}
	ob.mu.Lock()
	ob.ownLocked(s.RunID, s.Replica)
	r := ob.relays[s.RunID]
	if r == nil && s.Live && ob.followAll {
		r = ob.relayLocked(s.RunID, s.Replica)
	}
	ob.mu.Unlock()
	if r != nil && !s.Live {
		r.check()
	}
	ob.feeds.Publish(s)
}

// List returns the live runs of every replica announced, each with the
// replica that runs it, newest first. A replica that does not answer is
// left out.
func (ob *Observer) List() []runner.Summary {
	ctx, cancel := opCtx()
	defer cancel()
	var replicas []Replica
	if kv, err := ob.js.KeyValue(ctx, bucketReplicas); err == nil {
		replicas, _ = readReplicas(ctx, kv)
	}
	lists := make([][]runner.Summary, len(replicas))
	var wg sync.WaitGroup
	for i, r := range replicas {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = request(ob.nc, r.ID, "runs", nil, &lists[i])
		}()
	}
	wg.Wait()
	out := slices.Concat(lists...)
	ob.mu.Lock()
	for _, s := range out {
		ob.ownLocked(s.RunID, s.Replica)
		if ob.followAll && ob.relays[s.RunID] == nil {
			ob.relayLocked(s.RunID, s.Replica)
		}
	}
	ob.mu.Unlock()
	slices.SortFunc(out, func(a, b runner.Summary) int { return b.Started.Compare(a.Started) })
	return out
}

// maxOwners bounds the runs an observer remembers the replica of: a
// finished run's page can still be watched (from its replica's log) until
// that many runs have been heard of since.
const maxOwners = 10_000

// ownLocked records that replica runs id; ob.mu is held.
func (ob *Observer) ownLocked(id, replica string) {
	if _, ok := ob.owner[id]; !ok {
		ob.heard = append(ob.heard, id)
		if len(ob.heard) > maxOwners {
			delete(ob.owner, ob.heard[0])
			ob.heard = ob.heard[1:]
		}
	}
	ob.owner[id] = replica
}

// replicaOf is the replica that runs id, "" when none is known to.
func (ob *Observer) replicaOf(id string) string {
	ob.mu.Lock()
	defer ob.mu.Unlock()
	return ob.owner[id]
}

// Watch follows the events of run id after seq after, as its replica
// relays them; ok is false when no replica is known to run it.
func (ob *Observer) Watch(id string, after int64) (w *runapi.Watcher, ok bool) {
	ob.mu.Lock()
	defer ob.mu.Unlock()
	r := ob.relays[id]
	if r == nil {
		replica := ob.owner[id]
		if replica == "" {
			return nil, false
		}
		r = ob.relayLocked(id, replica)
	}
	return r.r.Watch(after), true
}

// Events returns every event of run id so far, from its replica.
func (ob *Observer) Events(id string) ([]event.Event, error) {
	events, _, err := fetchHistory(ob.nc, ob.replicaOf(id), id, 0)
	return events, err
}

// Control sends c to the replica that runs id.
func (ob *Observer) Control(id string, c agent.Control) error {
	return ob.steer(controlRequest{RunID: id, Control: &c})
}

// Approve sends the answer to approval approvalID to the replica that runs id.
func (ob *Observer) Approve(id, approvalID string, a runner.Answer) error {
	return ob.steer(controlRequest{RunID: id, ApprovalID: approvalID, Answer: &a})
}

func (ob *Observer) steer(req controlRequest) error {
	var reply controlReply
	if err := request(ob.nc, ob.replicaOf(req.RunID), "control", req, &reply); err != nil {
		return err
	}
	if reply.Error != nil {
		return *reply.Error
	}
	return nil
}

// follow makes the observer relay the events of every live run to Bus, as
// the window shows them.
func (ob *Observer) follow() {
	ob.mu.Lock()
	defer ob.mu.Unlock()
	if ob.followAll || ob.ctx.Err() != nil {
		return
	}
	ob.followAll = true
	ob.wg.Add(1)
	go func() {
		defer ob.wg.Done()
		ob.List()
	}()
}

// relay holds the events of one run of a replica, for its watchers.
type relay struct {
	ob          *Observer
	id, replica string
	r           *runapi.Log
	live        chan *nats.Msg
	poke        chan struct{}
	last        int64
}

// relayLocked starts relaying run id of replica; ob.mu is held.
func (ob *Observer) relayLocked(id, replica string) *relay {
	r := &relay{ob: ob, id: id, replica: replica, r: runapi.NewLog(),
		live: make(chan *nats.Msg, 4096), poke: make(chan struct{}, 1)}
	if ob.ctx.Err() != nil {
		r.r.End() // closed: nothing more comes
		return r
	}
	ob.relays[id] = r
	// Subscribed before the history is asked for, so that nothing falls
	// between them.
	sub, err := ob.nc.ChanSubscribe(eventsSubject(id), r.live)
	ob.wg.Add(1)
	go func() {
		defer ob.wg.Done()
		defer ob.drop(r)
		if err != nil {
			return
		}
		defer func() { _ = sub.Unsubscribe() }() // the observer is ending: nothing is left to tell
		r.run()
	}()
	return r
}

// drop ends r and forgets it, so that a later watcher starts afresh.
func (ob *Observer) drop(r *relay) {
	r.r.End()
	ob.mu.Lock()
	if ob.relays[r.id] == r {
		delete(ob.relays, r.id)
	}
	ob.mu.Unlock()
}

// check asks the relay to ask its replica how the run stands.
func (r *relay) check() {
	select {
	case r.poke <- struct{}{}:
	default:
	}
}

// run adds the run's events so far, then the live ones as they come,
// asking for the history again on a gap, until the run's leg is over, its
// replica stops answering or the observer closes.
func (r *relay) run() {
	if r.catchUp() {
		return
	}
	tick := time.NewTicker(checkEvery)
	defer tick.Stop()
	for {
		select {
		case m := <-r.live:
			var e event.Event
			if json.Unmarshal(m.Data, &e) != nil || e.Seq <= r.last {
				continue
			}
			if e.Seq > r.last+1 && r.catchUp() {
				return
			}
			if e.Seq > r.last {
				r.add(e)
			}
			if e.Type == event.RunFinished && r.catchUp() {
				return
			}
		case <-r.poke:
			if r.catchUp() {
				return
			}
		case <-tick.C:
			if r.catchUp() {
				return
			}
		case <-r.ob.ctx.Done():
			return
		}
	}
}

// catchUp adds the events the replica has after the last one added, and
// reports whether the relay is done: the leg is over, or the replica no
// longer answers for the run.
func (r *relay) catchUp() bool {
	events, ended, err := fetchHistory(r.ob.nc, r.replica, r.id, r.last)
	for _, e := range events {
		if e.Seq > r.last {
			r.add(e)
		}
	}
	return ended || err != nil
}

func (r *relay) add(e event.Event) {
	r.last = e.Seq
	r.r.Add(e)
	r.ob.mu.Lock()
	follow := r.ob.followAll
	r.ob.mu.Unlock()
	if follow {
		r.ob.bus.Publish(e)
	}
}
