package cluster_test

import (
	"fmt"
	"testing"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"hermes/backend/cluster"
	"hermes/backend/cluster/clustertest"
	"hermes/backend/config"
)

// TestAnnouncer_ABurstIsSaidInFewAnnouncements: a replica taking and
// settling 300 tasks in a burst announces itself a few times, not once or
// twice per task: each announcement writes every task it holds, which
// under load was most of what a replica and the NATS server did.
func TestAnnouncer_ABurstIsSaidInFewAnnouncements(t *testing.T) {
	srv := clustertest.Start(t)
	cl, err := cluster.Open(t.Context(), cluster.Options{Config: config.Cluster{NATSURL: srv.URL}, Name: "replica-0"})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	const n = 300
	taken := make(chan struct{}, n)
	stop, err := cl.Tasks().Consume(func(_ []byte, settle func(bool) error) {
		if err := settle(true); err != nil {
			t.Error(err)
		}
		taken <- struct{}{}
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if _, err := cl.Tasks().Publish(t.Context(), fmt.Sprintf("m%d", i), []byte(`{"user":"u"}`)); err != nil {
			t.Fatal(err)
		}
	}
	for range n {
		<-taken
	}
	stop()
	nc, err := nats.Connect(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	s, err := js.Stream(t.Context(), "KV_hermes_bot_replicas")
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.Info(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	// The puts and the withdrawal; the burst lasts well under a second.
	if puts := info.State.LastSeq; puts > 30 {
		t.Fatalf("%d announcements for a burst of %d tasks, want a few", puts, n)
	}
}
