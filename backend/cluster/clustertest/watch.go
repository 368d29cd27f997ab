package clustertest

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"hermes/backend/cluster"
)

// Watch sees, from outside the replicas, what they tell the NATS server:
// each acknowledgement of a task (its subject names the task's stream
// sequence and how often it was handed out) and each replica's
// announcement of the tasks it runs.
type Watch struct {
	nc *nats.Conn
	kw jetstream.KeyWatcher

	mu sync.Mutex
	// acked is, by stream sequence, the delivery that acknowledged the
	// task: 1 for the replica that took it first, more for a replica
	// that took it over.
	acked map[uint64]uint64
	// last is each replica's last announcement, by key.
	last    map[string][]byte
	changed chan struct{} // closed and replaced on each of them
}

// WatchCluster starts watching the NATS server at url; it stops when the
// test ends.
func WatchCluster(tb testing.TB, url string) *Watch {
	tb.Helper()
	nc, err := nats.Connect(url)
	if err != nil {
		tb.Fatal(err)
	}
	w := &Watch{nc: nc, acked: map[uint64]uint64{}, last: map[string][]byte{}, changed: make(chan struct{})}
	// The acknowledgements go to the tasks' consumer; a plain subscriber
	// on their subjects sees a copy of each.
	sub, err := nc.Subscribe("$JS.ACK.>", w.ack)
	if err != nil {
		tb.Fatal(err)
	}
	// Replicas holding many tasks say they still work on each every
	// third of the ack wait: none of it may be dropped.
	if err := sub.SetPendingLimits(-1, -1); err != nil {
		tb.Fatal(err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	kv, err := js.KeyValue(ctx, "hermes_bot_replicas")
	if err != nil {
		tb.Fatal(err)
	}
	if w.kw, err = kv.WatchAll(context.Background()); err != nil {
		tb.Fatal(err)
	}
	go w.announcements()
	tb.Cleanup(w.Close)
	return w
}

// ack records an acknowledgement, whose subject is
// $JS.ACK.<stream>.<consumer>.<delivered>.<stream seq>.… (or with a domain
// and an account hash after ACK).
func (w *Watch) ack(m *nats.Msg) {
	if !strings.HasPrefix(string(m.Data), "+ACK") {
		return // in progress, handed back
	}
	t := strings.Split(m.Subject, ".")
	i := 2
	if len(t) >= 12 {
		i = 4
	}
	if len(t) < i+4 || t[i] != "HERMES_BOT_INBOX" {
		return
	}
	delivered, err1 := strconv.ParseUint(t[i+2], 10, 64)
	seq, err2 := strconv.ParseUint(t[i+3], 10, 64)
	if err1 != nil || err2 != nil {
		return
	}
	w.mu.Lock()
	w.acked[seq] = max(w.acked[seq], delivered)
	w.changedLocked()
	w.mu.Unlock()
}

// announcements keeps each replica's last announcement as it came; they
// are decoded only when asked about (a replica running many tasks
// announces often, and at length).
func (w *Watch) announcements() {
	for e := range w.kw.Updates() {
		if e == nil || e.Operation() != jetstream.KeyValuePut {
			continue
		}
		w.mu.Lock()
		w.last[e.Key()] = e.Value()
		w.changedLocked()
		w.mu.Unlock()
	}
}

// Held is the tasks the replica process pid last announced it runs.
func (w *Watch) Held(pid int) []uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.heldLocked(pid)
}

func (w *Watch) heldLocked(pid int) []uint64 {
	for _, data := range w.last {
		var r cluster.Replica
		if json.Unmarshal(data, &r) != nil || r.PID != pid {
			continue
		}
		seqs := make([]uint64, len(r.Tasks))
		for i, t := range r.Tasks {
			seqs[i] = t.Seq
		}
		return seqs
	}
	return nil
}

// WaitHeld returns the tasks the replica process pid runs once it
// announces at least one, waking on each announcement.
func (w *Watch) WaitHeld(tb testing.TB, pid int) []uint64 {
	tb.Helper()
	var held []uint64
	w.wait(tb, func() bool { held = w.heldLocked(pid); return len(held) > 0 })
	return held
}

// WaitAcked returns once n tasks are acknowledged, waking on each.
func (w *Watch) WaitAcked(tb testing.TB, n int) {
	tb.Helper()
	w.wait(tb, func() bool { return len(w.acked) >= n })
}

// wait returns once cond, called with w.mu held, is true; it fails the
// test after ten minutes (a bench at full size acknowledges for minutes).
func (w *Watch) wait(tb testing.TB, cond func() bool) {
	tb.Helper()
	timeout := time.NewTimer(10 * time.Minute)
	defer timeout.Stop()
	for {
		w.mu.Lock()
		ok, changed := cond(), w.changed
		w.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-changed:
		case <-timeout.C:
			tb.Fatal("clustertest: the replicas never told the NATS server what was awaited")
			return
		}
	}
}

// changedLocked wakes the waiters; call it with w.mu held.
func (w *Watch) changedLocked() {
	close(w.changed)
	w.changed = make(chan struct{})
}

// Acked is how many tasks were acknowledged, and how many of them by a
// replica that took them over (handed out more than once).
func (w *Watch) Acked() (acked, takenOver int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, d := range w.acked {
		if d > 1 {
			takenOver++
		}
	}
	return len(w.acked), takenOver
}

// Finished sorts seqs (tasks a replica held when it was killed) into those
// another replica acknowledged, those the killed one acknowledged before
// it died (its announcement came before), and those nobody did.
func (w *Watch) Finished(seqs []uint64) (byAnother, before, never int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, s := range seqs {
		switch d, ok := w.acked[s]; {
		case !ok:
			never++
		case d > 1:
			byAnother++
		default:
			before++
		}
	}
	return byAnother, before, never
}

// Close stops watching.
func (w *Watch) Close() {
	_ = w.kw.Stop()
	w.nc.Close()
}
