package bot

import (
	"math"
	"runtime/metrics"
	"sync"
	"time"
)

// runGate bounds how many of the bot's runs are live at once, by what the
// Go scheduler says about the process: while goroutines wait longer than
// lagTarget to run (the 99th percentile over the last quarter second), the
// limit falls below the runs live, and new runs wait for one to end; while
// they do not and the limit is reached, it rises a tenth.
//
// A run waiting on its model costs nothing, so with real models the limit
// is seldom reached. Under a burst the runs are what takes the CPU, and the
// callbacks share it: without the gate, 1,300 runs live in each of three
// replicas on two cores left a callback waiting 171 ms at the 95th
// percentile (bench/cluster.sh) before WeCom heard back; with it, 74 ms,
// and every message answered as soon. A task waiting here stays this
// replica's (its lease is kept) and is counted in the cluster's status.
type runGate struct {
	mu       sync.Mutex
	cond     *sync.Cond
	live     int
	waiting  int
	limit    int
	watching bool // a goroutine adjusts the limit while runs are live or waiting
	closed   bool
	lag      func() time.Duration // the scheduler's latency since its last call; sched99 but in tests
}

const (
	// lagTarget is the scheduling latency at which the gate narrows: a
	// callback's goroutine waits about as long, several times over, for
	// its round trips.
	lagTarget = 10 * time.Millisecond
	// gateEvery is how often the limit is adjusted.
	gateEvery  = 250 * time.Millisecond
	firstLimit = 64
	leastLimit = 4
)

func newRunGate() *runGate {
	g := &runGate{limit: firstLimit, lag: newSched99()}
	g.cond = sync.NewCond(&g.mu)
	return g
}

// enter waits until a run may start and counts it live, or returns false
// once the gate is closed (the bot is shutting down).
func (g *runGate) enter() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.watching && !g.closed {
		g.watching = true
		go g.watch()
	}
	g.waiting++
	g.cond.Broadcast() // for waitGated
	for g.live >= g.limit && !g.closed {
		g.cond.Wait()
	}
	g.waiting--
	if g.closed {
		return false
	}
	g.live++
	return true
}

// leave counts a run entered as ended.
func (g *runGate) leave() {
	g.mu.Lock()
	g.live--
	g.mu.Unlock()
	g.cond.Broadcast()
}

// close lets every run waiting go, refused, and every later one too.
func (g *runGate) close() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
	g.cond.Broadcast()
}

// watch adjusts the limit every gateEvery until no run is live or waiting.
func (g *runGate) watch() {
	tick := time.NewTicker(gateEvery)
	defer tick.Stop()
	g.lag() // from now
	for range tick.C {
		lag := g.lag()
		g.mu.Lock()
		if g.closed || g.live+g.waiting == 0 {
			g.watching = false
			g.mu.Unlock()
			return
		}
		g.adjust(lag)
		g.mu.Unlock()
		g.cond.Broadcast()
	}
}

// adjust sets the limit from the scheduler's latency; call it with g.mu held.
func (g *runGate) adjust(lag time.Duration) {
	switch {
	case lag > lagTarget:
		g.limit = max(leastLimit, g.live*3/4)
	case g.live >= g.limit:
		g.limit += max(1, g.limit/10)
	}
}

// newSched99 returns a func that gives the 99th percentile of the time
// goroutines waited to run since its previous call.
func newSched99() func() time.Duration {
	sample := []metrics.Sample{{Name: "/sched/latencies:seconds"}}
	var prev []uint64
	return func() time.Duration {
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindFloat64Histogram {
			return 0 // not kept by this Go: the gate stays open
		}
		h := sample[0].Value.Float64Histogram()
		if prev == nil {
			prev = make([]uint64, len(h.Counts))
		}
		p := percentileSince(h, prev, 0.99)
		copy(prev, h.Counts)
		return p
	}
}

// percentileSince is the q quantile of the samples h holds beyond prev
// (an earlier reading of the same histogram), as the upper edge of its
// bucket.
func percentileSince(h *metrics.Float64Histogram, prev []uint64, q float64) time.Duration {
	var total uint64
	for i, c := range h.Counts {
		total += c - prev[i]
	}
	if total == 0 {
		return 0
	}
	var cum uint64
	for i, c := range h.Counts {
		cum += c - prev[i]
		if float64(cum) >= q*float64(total) {
			edge := h.Buckets[i+1]
			if math.IsInf(edge, 1) {
				edge = h.Buckets[i]
			}
			return time.Duration(edge * float64(time.Second))
		}
	}
	return 0
}
