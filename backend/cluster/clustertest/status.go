package clustertest

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"hermes/backend/cluster"
)

// WaitReplicas watches the replicas' announcements on the NATS server at
// url and returns once until, given them by key, says so: it is asked
// after the bucket's values at the start are read, then at each change.
func WaitReplicas(tb testing.TB, url string, until func(map[string]cluster.Replica) bool) {
	tb.Helper()
	nc, err := nats.Connect(url)
	if err != nil {
		tb.Fatal(err)
	}
	defer nc.Close()
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
	w, err := kv.WatchAll(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	defer w.Stop()
	seen := map[string]cluster.Replica{}
	current := false
	for {
		select {
		case e := <-w.Updates():
			switch {
			case e == nil:
				current = true
			case e.Operation() == jetstream.KeyValuePut:
				var r cluster.Replica
				if err := json.Unmarshal(e.Value(), &r); err != nil {
					tb.Fatal(err)
				}
				seen[e.Key()] = r
			default: // withdrawn, or aged out
				delete(seen, e.Key())
			}
			if current && until(seen) {
				return
			}
		case <-ctx.Done():
			tb.Fatalf("the replicas' announcements never came to the expected state: %+v", seen)
		}
	}
}

// Running are the users whose tasks the replicas run, sorted.
func Running(rs map[string]cluster.Replica) []string {
	var users []string
	for _, r := range rs {
		for _, t := range r.Tasks {
			users = append(users, t.User)
		}
	}
	slices.Sort(users)
	return users
}
