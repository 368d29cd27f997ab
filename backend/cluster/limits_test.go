package cluster_test

import (
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"hermes/backend/cluster/clustertest"
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
	// Every change of the leases, to count them against the calls.
	nc, err := nats.Connect(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	kv, err := js.KeyValue(t.Context(), "hermes_bot_limits")
	if err != nil {
		t.Fatal(err)
	}
	w, err := kv.Watch(t.Context(), "rate.*", jetstream.UpdatesOnly())
	if err != nil {
		t.Fatal(err)
	}
	var changes atomic.Int32
	go func() {
		for range w.Updates() {
			changes.Add(1)
		}
	}()
	res := clustertest.Load(t, wecom, rs, load, release, nil)
	w.Stop()
	if res.Lost != 0 || res.Twice != 0 {
		t.Fatal(res)
	}
	st := wecom.Stats()
	if st.OverLimit != 0 || st.MaxPerSecond > limit {
		t.Fatalf("WeCom saw %+v: the company's limit of %d a second was passed", st, limit)
	}
	calls := st.Send + st.Convert + st.GetToken
	t.Logf("%d calls, at most %d in a second, %d lease changes in %v", calls, st.MaxPerSecond, changes.Load(), res.Elapsed)
	if int(changes.Load()) >= calls/2 {
		t.Errorf("%d lease changes for %d calls: the replicas meet in JetStream per call", changes.Load(), calls)
	}
}
