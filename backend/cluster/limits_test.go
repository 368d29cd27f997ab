package cluster_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"hermes/backend/chatapi/chatapitest"
	"hermes/backend/cluster"
	"hermes/backend/cluster/clustertest"
	"hermes/backend/config"
	"hermes/backend/llm/llmtest"
	"hermes/backend/wecom/wecomtest"
)

// TestRate_CompanyLimitHoldsAcrossReplicas: three replicas, each told the
// company's limit ([bot] rate_limit, not divided by the replicas), answer a
// burst together through a WeCom that refuses calls over the limit: no
// second ever sees more than the limit arrive, and every message is
// answered once.
func TestRate_CompanyLimitHoldsAcrossReplicas(t *testing.T) {
	const limit = 30
	load := wecomtest.Load{Users: 40, PerUser: 1}
	wecom := wecomtest.NewServer(t, clustertest.CorpID, clustertest.Secret, limit)
	release := make(chan struct{})
	model := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		return llmtest.Step{Content: wecomtest.Answer(req), Wait: release}
	})
	srv := clustertest.Start(t)
	cfg := clustertest.BotConfig(wecom)
	cfg.RateLimit = limit
	rs := make([]*clustertest.Replica, 3)
	for i := range rs {
		rs[i] = clustertest.StartReplica(t, clustertest.ReplicaOptions{
			Name: fmt.Sprintf("replica-%d", i), NATSURL: srv.URL, Model: model.URL, Bot: cfg,
		})
	}
	changes := watchLeases(t, srv.URL)
	res := clustertest.Load(t, wecom, rs, load, release, nil)
	if res.Lost != 0 || res.Twice != 0 {
		t.Fatal(res)
	}
	st := wecom.Stats()
	if st.OverLimit != 0 || st.MaxPerSecond > limit {
		t.Fatalf("WeCom saw %+v: the company's limit of %d a second was passed", st, limit)
	}
	calls := st.Send + st.Convert + st.GetToken
	t.Logf("%d calls, at most %d in a second, %d lease changes in %v", calls, st.MaxPerSecond, changes.Load(), res.Elapsed)
	if perSecond := float64(changes.Load()) / res.Elapsed.Seconds(); perSecond > 20 {
		t.Errorf("%d lease changes in %v: the replicas meet in JetStream too often", changes.Load(), res.Elapsed)
	}
}

// TestRate_FiveHundredASecondAcrossThreeReplicas: three replicas' callers
// start calls as fast as the company's limit of 500 a second lets them, for
// two seconds: no second sees more than 500 start, and the replicas change
// their leases a few times a second, not once per call.
func TestRate_FiveHundredASecondAcrossThreeReplicas(t *testing.T) {
	const limit = 500
	srv := clustertest.Start(t)
	var (
		mu     sync.Mutex
		window chatapitest.Window
		most   int
		calls  atomic.Int32
		each   [3]atomic.Int32
	)
	var rates [3]*cluster.Rate
	for i := range rates {
		cl, err := cluster.Open(t.Context(), cluster.Options{Config: config.Cluster{NATSURL: srv.URL}, Name: fmt.Sprintf("replica-%d", i)})
		if err != nil {
			t.Fatal(err)
		}
		defer cl.Close()
		rates[i] = cl.Rate("corp/1", limit)
	}
	changes := watchLeases(t, srv.URL)
	stop := time.Now().Add(2 * time.Second)
	var wg sync.WaitGroup
	for i, rate := range rates {
		for range 50 { // callers per replica
			wg.Go(func() {
				for time.Now().Before(stop) {
					done, err := rate.Acquire(t.Context())
					if err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					most = max(most, window.Arrive())
					mu.Unlock()
					calls.Add(1)
					each[i].Add(1)
					done()
				}
			})
		}
	}
	wg.Wait()
	t.Logf("%d calls in 2 s (%d, %d, %d by replica), at most %d in a second, %d lease changes",
		calls.Load(), each[0].Load(), each[1].Load(), each[2].Load(), most, changes.Load())
	if most > limit {
		t.Fatalf("%d calls started within a second, over the limit of %d", most, limit)
	}
	if int(changes.Load()) > int(calls.Load())/20 {
		t.Errorf("%d lease changes for %d calls", changes.Load(), calls.Load())
	}
}

// watchLeases counts the changes of the rate leases from now on.
func watchLeases(t *testing.T, url string) *atomic.Int32 {
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, _ := jetstream.New(nc)
	kv, err := js.KeyValue(t.Context(), "hermes_bot_limits")
	if err != nil {
		t.Fatal(err)
	}
	w, err := kv.Watch(t.Context(), "rate.*", jetstream.UpdatesOnly())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Stop() })
	var changes atomic.Int32
	go func() {
		for range w.Updates() {
			changes.Add(1)
		}
	}()
	return &changes
}

// TestRate_DeadReplicasPlacesComeBack: a replica holding every place of the
// limit dies without giving them back; once its lease has lapsed (12 s on
// the clock of the replica that looks) another replica takes them.
func TestRate_DeadReplicasPlacesComeBack(t *testing.T) {
	const limit = 5
	srv := clustertest.Start(t)
	open := func(name string, now func() time.Time) *cluster.Cluster {
		cl, err := cluster.Open(t.Context(), cluster.Options{Config: config.Cluster{NATSURL: srv.URL}, Name: name, Now: now})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(cl.Close)
		return cl
	}
	dead := open("replica-0", nil)
	dying := dead.Rate("corp/1", limit)
	for range limit {
		if _, err := dying.Acquire(t.Context()); err != nil { // never done: it dies mid-call
			t.Fatal(err)
		}
	}
	dead.Close()
	soon, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	if _, err := open("replica-1", nil).Rate("corp/1", limit).Acquire(soon); err == nil {
		t.Fatal("a call started while another replica held every place")
	}
	later := open("replica-2", func() time.Time { return time.Now().Add(13 * time.Second) }).Rate("corp/1", limit)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	if _, err := later.Acquire(ctx); err != nil {
		t.Fatalf("the dead replica's places never came back: %v", err)
	}
}
