package cluster_test

import (
	"testing"
	"time"

	"hermes/backend/cluster"
	"hermes/backend/cluster/clustertest"
	"hermes/backend/config"
)

// A session's commands reach the replica serving it, whichever replica
// asks; with none serving it, the asker is told so at once, not after a
// timeout.
func TestSteering_ReachesTheServingReplicaOnly(t *testing.T) {
	srv := clustertest.Start(t)
	open := func(name string) *cluster.Cluster {
		cl, err := cluster.Open(t.Context(), cluster.Options{Config: config.Cluster{NATSURL: srv.URL}, Name: name})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(cl.Close)
		return cl
	}
	one, two := open("replica-1").Steering(), open("replica-2").Steering()

	start := time.Now()
	if _, served, err := two.Ask("wecom/henry", []byte("stop")); served || err != nil {
		t.Fatalf("Ask with no replica serving: served %v, %v", served, err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Ask with no replica serving took %v, want no wait", d)
	}

	stop, err := one.Serve("wecom/henry", func(req []byte) []byte { return append([]byte("heard "), req...) })
	if err != nil {
		t.Fatal(err)
	}
	reply, served, err := two.Ask("wecom/henry", []byte("stop"))
	if !served || err != nil || string(reply) != "heard stop" {
		t.Fatalf("Ask: %q, served %v, %v; want the serving replica's reply", reply, served, err)
	}
	if _, served, _ := two.Ask("wecom/ivy", []byte("stop")); served {
		t.Fatal("another session's command was served")
	}
	stop()
	if _, served, err := two.Ask("wecom/henry", []byte("stop")); served || err != nil {
		t.Fatalf("Ask after the run ended: served %v, %v", served, err)
	}
}
