package cluster

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"hermes/backend/chatapi"
)

// leaseFor is how long a replica's lease on places of the company's
// limit lasts unless renewed (every third of it). A replica that dies
// holds its places no longer than twice that: the others wait leaseFor
// past the end, for the clocks' differences and its calls still on the way.
const leaseFor = 6 * time.Second

// Rate is the company's per-second limit of API calls (WeCom's 500 a
// second) shared by the replicas without a round trip to JetStream per
// call. The limit's n places are leased: a bucket entry lists how many
// each replica holds, changed by revision, and each replica lets calls
// start against its own places as one process does (chatapi.Limiter: a
// place is held from a call's start until a second after its end). The
// entry changes only when a replica wants more places or gives some back,
// so the replicas meet in JetStream a few times a second, not per message.
// Places move only once idle: a replica that gives places back first stops
// using them and writes them off only when their last call is a second
// old, so no second ever sees more than n calls arrive from all replicas.
type Rate struct {
	cl      *Cluster
	key, id string
	n       int
	per     time.Duration

	local *chatapi.Limiter
	kick  chan struct{}
	once  sync.Once

	// Kept by the keeper goroutine alone.
	cap      int       // the places calls may use here
	recorded lease     // this replica's lease as last written
	written  time.Time // when it was
}

// lease is one replica's hold on the limit's places.
type lease struct {
	N     int   `json:"n"`              // places held, in use or not
	Want  bool  `json:"want,omitempty"` // callers wait for a place
	Until int64 `json:"until"`          // unix nanoseconds
}

// Rate returns the shared limit of n calls a second of the application
// named app (such as corp id and agent id).
func (cl *Cluster) Rate(app string, n int) *Rate {
	raw := make([]byte, 8)
	rand.Read(raw)
	r := &Rate{
		cl: cl, key: "rate." + keyOf(app), id: hex.EncodeToString(raw), n: max(n, 1), per: time.Second,
		local: chatapi.NewLimiter(1, time.Second, cl.now), kick: make(chan struct{}, 1),
	}
	r.local.SetCap(0) // no place until one is leased
	return r
}

// Acquire waits for a place, leasing more of the limit when there are
// none here.
func (r *Rate) Acquire(ctx context.Context) (func(), error) {
	r.once.Do(func() { go r.keep() })
	if done, ok := r.local.TryAcquire(); ok {
		return done, nil
	}
	// A caller that has to wait tells the keeper, which may lease more.
	select {
	case r.kick <- struct{}{}:
	default:
	}
	return r.local.Acquire(ctx)
}

// keep holds this replica's lease: renewed, grown while callers wait,
// shrunk to a fair share when other replicas' callers wait. It ends when
// the replica's connection is closed.
func (r *Rate) keep() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var updates <-chan jetstream.KeyValueEntry
	if w, err := r.cl.limits.Watch(ctx, r.key, jetstream.UpdatesOnly()); err == nil {
		defer w.Stop()
		updates = w.Updates()
	}
	tick := time.NewTicker(r.per / 4)
	defer tick.Stop()
	for !r.cl.nc.IsClosed() {
		r.adjust(ctx)
		select {
		case <-r.kick:
		case _, ok := <-updates:
			if !ok {
				updates = nil // the ticks go on
			}
		case <-tick.C:
		}
	}
	r.local.SetCap(0)
}

// adjust reads the leases and writes this replica's anew where it changes
// or is due for renewal; again when another replica wrote first.
func (r *Rate) adjust(ctx context.Context) {
	for try := 0; try < 5; try++ {
		now := r.cl.now()
		leases, rev, err := r.read(ctx)
		if err != nil {
			break
		}
		delete(leases, r.id)
		others, wanting := 0, 0
		for id, l := range leases {
			if now.UnixNano() > l.Until+int64(leaseFor) {
				delete(leases, id) // a dead replica's
				continue
			}
			others += l.N
			if l.Want {
				wanting++
			}
		}
		used, waiting := r.local.Used()
		want := waiting > 0
		fair := r.n / (wanting + 1)
		target := r.cap
		switch {
		case want && wanting == 0:
			target = r.n
		case want:
			target = fair
		case wanting > 0:
			target = min(r.cap, used, fair) // give back what is idle
		}
		next := r.cap
		if target < r.cap {
			// Stop using them first; they are written off once idle.
			next = target
			r.cap = next
			r.local.SetCap(next)
			used, _ = r.local.Used()
		} else if target > r.cap {
			next = r.cap + max(0, min(target-r.cap, r.n-others-max(r.cap, used)))
		}
		mine := lease{N: max(next, used), Want: want, Until: now.Add(leaseFor).UnixNano()}
		if mine.N == r.recorded.N && mine.Want == r.recorded.Want && now.Sub(r.written) < leaseFor/3 {
			return
		}
		if mine.N == 0 && !mine.Want && r.recorded.N == 0 && !r.recorded.Want {
			return // nothing held, nothing wanted: no entry to keep
		}
		if mine.N > 0 || mine.Want {
			leases[r.id] = mine
		}
		data, _ := json.Marshal(leases)
		if rev == 0 {
			_, err = r.cl.limits.Create(ctx, r.key, data)
		} else {
			_, err = r.cl.limits.Update(ctx, r.key, data, rev)
		}
		if err == nil {
			r.recorded, r.written = mine, now
			if next > r.cap {
				r.local.SetCap(next)
			}
			r.cap = next
			return
		}
		if !conflict(err) {
			break
		}
	}
	// JetStream unreachable: the places are this replica's only until its
	// lease ends.
	if r.cl.now().UnixNano() >= r.recorded.Until {
		r.cap = 0
		r.local.SetCap(0)
	}
}

// read returns the leases and the entry's revision (0: none yet).
func (r *Rate) read(ctx context.Context) (map[string]lease, uint64, error) {
	leases := map[string]lease{}
	e, err := r.cl.limits.Get(ctx, r.key)
	switch {
	case errors.Is(err, jetstream.ErrKeyNotFound):
		return leases, 0, nil
	case err != nil:
		return nil, 0, err
	}
	// A value that cannot be read holds no lease; the next write replaces it.
	_ = json.Unmarshal(e.Value(), &leases)
	return leases, e.Revision(), nil
}
