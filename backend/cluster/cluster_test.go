package cluster_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"hermes/backend/cluster"
	"hermes/backend/cluster/clustertest"
	"hermes/backend/config"
)

// replicas opens n connections to one server, as n bot replicas would.
func replicas(t *testing.T, n int, ackWait time.Duration) []*cluster.Cluster {
	t.Helper()
	srv := clustertest.Start(t)
	out := make([]*cluster.Cluster, n)
	for i := range out {
		c, err := cluster.Open(t.Context(), cluster.Options{
			Config: config.Cluster{NATSURL: srv.URL}, Name: fmt.Sprintf("replica-%d", i), AckWait: ackWait,
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		out[i] = c
	}
	return out
}

// TestSeen_OneReplicaWinsEachID: every replica is asked about every id at
// once; each id is first on exactly one of them.
func TestSeen_OneReplicaWinsEachID(t *testing.T) {
	rs := replicas(t, 3, 0)
	const ids = 100
	var wins [ids]atomic.Int32
	var wg sync.WaitGroup
	for _, r := range rs {
		seen := r.Seen()
		wg.Go(func() {
			for i := range ids {
				first, err := seen.First(fmt.Sprintf("wecom/msg-%d", i))
				if err != nil {
					t.Error(err)
				}
				if first {
					wins[i].Add(1)
				}
			}
		})
	}
	wg.Wait()
	for i := range ids {
		if n := wins[i].Load(); n != 1 {
			t.Errorf("message %d was first on %d replicas, want 1", i, n)
		}
	}
}

// TestTasks_TakenOnceAndTakenOverWhenHolderDies: tasks published on one
// replica are taken by the three, each exactly once; a task whose replica
// loses its connection without acknowledging goes to another one, and the
// first one's late acknowledgement is refused.
func TestTasks_TakenOnceAndTakenOverWhenHolderDies(t *testing.T) {
	rs := replicas(t, 3, time.Second)
	const n = 200
	var mu sync.Mutex
	taken := map[string]int{} // settled: the replica that may answer
	all := make(chan struct{})
	var allOnce sync.Once
	for _, r := range rs[1:] {
		stop, err := r.Tasks().Consume(func(task []byte, settle func(bool) error) {
			// A busy machine may let the 1 s ack wait pass before a task is
			// settled: it is then handed out again and only the replica
			// holding its lease may answer; the other is told ErrLeaseLost.
			if err := settle(true); err != nil {
				if !errors.Is(err, cluster.ErrLeaseLost) {
					t.Error(err)
				}
				return
			}
			mu.Lock()
			taken[string(task)]++
			if len(taken) == n {
				allOnce.Do(func() { close(all) })
			}
			mu.Unlock()
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(stop)
	}
	for i := range n {
		id := fmt.Sprintf("m%d", i)
		if first, err := rs[0].Tasks().Publish(t.Context(), id, []byte(id)); err != nil || !first {
			t.Fatalf("Publish(%s) = %v, %v", id, first, err)
		}
	}
	// A resend of the same message within the window is dropped, on any
	// replica.
	if first, err := rs[1].Tasks().Publish(t.Context(), "m0", []byte("m0")); err != nil || first {
		t.Fatalf("Publish of a resend = %v, %v; want false", first, err)
	}
	select {
	case <-all:
	case <-time.After(20 * time.Second):
		t.Fatalf("%d of %d tasks taken", len(taken), n)
	}
	mu.Lock()
	for id, k := range taken {
		if k != 1 {
			t.Errorf("task %s settled %d times", id, k)
		}
	}
	mu.Unlock()
}

func TestTasks_TakenOverWhenHolderDies(t *testing.T) {
	rs := replicas(t, 2, time.Second)
	dying, other := rs[0].Tasks(), rs[1].Tasks()
	held := make(chan func(bool) error, 1)
	stop, err := dying.Consume(func(_ []byte, settle func(bool) error) { held <- settle })
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	if _, err := other.Publish(t.Context(), "x1", []byte("task")); err != nil {
		t.Fatal(err)
	}
	settleDead := <-held
	// The holder dies: its connection goes without a word.
	rs[0].Close()
	got := make(chan []byte, 1)
	stop2, err := other.Consume(func(task []byte, settle func(bool) error) {
		if err := settle(true); err != nil {
			t.Error(err)
		}
		got <- task
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stop2()
	if task := <-got; string(task) != "task" {
		t.Fatalf("took %q", task)
	}
	if _, over := other.Counts(); over != 1 {
		t.Errorf("%d tasks taken over, want 1", over)
	}
	if err := settleDead(true); !errors.Is(err, cluster.ErrLeaseLost) {
		t.Fatalf("the dead replica's acknowledgement: %v, want ErrLeaseLost", err)
	}
}

// TestSessions_UpdateKeepsEveryChange: two replicas change one record at
// once; no change is lost.
func TestSessions_UpdateKeepsEveryChange(t *testing.T) {
	rs := replicas(t, 2, 0)
	var wg sync.WaitGroup
	for i, r := range rs {
		s := r.Sessions()
		wg.Go(func() {
			for j := range 25 {
				err := s.Update("wecom/user 1", func(stored []byte) ([]byte, error) {
					var list []string
					if err := json.Unmarshal(stored, &list); stored != nil && err != nil {
						return nil, err
					}
					return json.Marshal(append(list, fmt.Sprintf("%d-%d", i, j)))
				})
				if err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	data, err := rs[0].Sessions().Load("wecom/user 1")
	var list []string
	if err != nil || json.Unmarshal(data, &list) != nil || len(list) != 50 {
		t.Fatalf("record %s (%v), want 50 changes", data, err)
	}
	if data, err := rs[1].Sessions().Load("nobody"); data != nil || err != nil {
		t.Fatalf("Load of no record = %q, %v", data, err)
	}
}

// TestToken_OneReplicaFetches: replicas that need the token at once cause
// one fetch; a token WeCom refused is fetched again, once.
func TestToken_OneReplicaFetches(t *testing.T) {
	rs := replicas(t, 3, 0)
	var fetches atomic.Int32
	fetch := func(context.Context) (string, time.Time, error) {
		n := fetches.Add(1)
		return fmt.Sprintf("tok-%d", n), time.Now().Add(time.Hour), nil
	}
	get := func() []string {
		toks := make([]string, len(rs)*4)
		var wg sync.WaitGroup
		for i := range toks {
			tok := rs[i%len(rs)].Token("corp/1000002")
			wg.Go(func() {
				got, _, err := tok.Token(t.Context(), fetch)
				if err != nil {
					t.Error(err)
				}
				toks[i] = got
			})
		}
		wg.Wait()
		return toks
	}
	for _, tok := range get() {
		if tok != "tok-1" {
			t.Fatalf("got %q, want tok-1 for everyone", tok)
		}
	}
	rs[1].Token("corp/1000002").Drop("tok-1")
	rs[2].Token("corp/1000002").Drop("tok-1") // a second refusal of the same token changes nothing
	for _, tok := range get() {
		if tok != "tok-2" {
			t.Fatalf("got %q after a drop, want tok-2", tok)
		}
	}
	if n := fetches.Load(); n != 2 {
		t.Fatalf("%d fetches, want 2", n)
	}
}

// TestLimits_HoldAcrossReplicas: a user's limit of 2 a minute is shared:
// the third call, on another replica, waits.
func TestLimits_HoldAcrossReplicas(t *testing.T) {
	rs := replicas(t, 3, 0)
	for _, r := range rs[:2] {
		done, err := r.Limits().Acquire(t.Context(), "user1", 2, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		done()
	}
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	if _, err := rs[2].Limits().Acquire(ctx, "user1", 2, time.Minute); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("third call within the minute: %v, want it held back", err)
	}
	if done, err := rs[2].Limits().Acquire(t.Context(), "user2", 2, time.Minute); err != nil {
		t.Fatal(err)
	} else {
		done()
	}
}
