package cluster_test

import (
	"errors"
	"testing"
	"time"

	"hermes/backend/cluster"
	"hermes/backend/cluster/clustertest"
	"hermes/backend/config"
)

// TestTasks_SlowHolderLosesItsTaskToTheTakeover: a replica alive but too
// slow to say it still works on a task (a busy machine, a NATS server
// slow to answer) loses it to another after the ack wait. JetStream takes
// an acknowledgement from any delivery of a task still pending, so both
// would answer; the one that took it over answers, the slow one is told
// ErrLeaseLost.
func TestTasks_SlowHolderLosesItsTaskToTheTakeover(t *testing.T) {
	srv := clustertest.Start(t)
	// The slow replica says it works every 20 s; the consumer, set by the
	// replica opened last, hands a silent task on after 1 s.
	slow, other := openAcking(t, srv.URL, "slow", time.Minute), openAcking(t, srv.URL, "other", time.Second)
	type taken struct {
		task   string
		settle func(bool) error
	}
	consume := func(c *cluster.Cluster) chan taken {
		ch := make(chan taken, 4)
		stop, err := c.Tasks().Consume(func(task []byte, settle func(bool) error) { ch <- taken{string(task), settle} })
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(stop)
		return ch
	}
	slowTook := consume(slow)
	if _, err := other.Tasks().Publish(t.Context(), "m1", []byte("m1")); err != nil {
		t.Fatal(err)
	}
	first := <-slowTook
	otherTook := consume(other)
	second := <-otherTook // after the ack wait, the task is the other's
	if second.task != "m1" {
		t.Fatalf("the other replica took %q", second.task)
	}
	if err := first.settle(true); !errors.Is(err, cluster.ErrLeaseLost) {
		t.Fatalf("the slow replica's acknowledgement: %v, want ErrLeaseLost", err)
	}
	if err := second.settle(true); err != nil {
		t.Fatalf("the acknowledgement of the replica that took it over: %v", err)
	}

}

// TestTasks_CheckSaysWhichTasksAreStillHeld: a replica answering several
// tasks at once (a merged run) checks every lease before it acknowledges
// any: a task taken over meanwhile fails its check with ErrLeaseLost, while
// those still held pass it and are acknowledged after it.
func TestTasks_CheckSaysWhichTasksAreStillHeld(t *testing.T) {
	srv := clustertest.Start(t)
	slow, other := openAcking(t, srv.URL, "slow", time.Minute), openAcking(t, srv.URL, "other", time.Second)
	type taken struct {
		task   string
		check  func() error
		settle func(bool) error
	}
	take := func(c *cluster.Cluster) chan taken {
		ch := make(chan taken, 4)
		stop, err := c.Tasks().Take(func(task []byte, check func() error, settle func(bool) error) {
			ch <- taken{string(task), check, settle}
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(stop)
		return ch
	}
	slowTook := take(slow)
	if _, err := other.Tasks().Publish(t.Context(), "m1", []byte("m1")); err != nil {
		t.Fatal(err)
	}
	first := <-slowTook
	otherTook := take(other)
	second := <-otherTook // after the ack wait, m1 is the other's
	if err := first.check(); !errors.Is(err, cluster.ErrLeaseLost) {
		t.Fatalf("the slow replica's check of m1: %v, want ErrLeaseLost", err)
	}
	if err := second.check(); err != nil {
		t.Fatalf("the check of the replica that took m1 over: %v", err)
	}
	if err := second.settle(true); err != nil {
		t.Fatalf("its acknowledgement after the check: %v", err)
	}
	// A first delivery, checked (its lease written) then acknowledged.
	if _, err := other.Tasks().Publish(t.Context(), "m2", []byte("m2")); err != nil {
		t.Fatal(err)
	}
	var m2 taken
	for m2.task != "m2" { // m1 may come again, found lost by its check
		select {
		case m2 = <-slowTook:
		case m2 = <-otherTook:
		}
	}
	if err := m2.check(); err != nil {
		t.Fatalf("the check of m2, held: %v", err)
	}
	if err := m2.settle(true); err != nil {
		t.Fatalf("the acknowledgement of m2 after its check: %v", err)
	}
}

// openAcking opens replica name of the cluster at url, saying it still
// works on its tasks every third of ackWait.
func openAcking(t *testing.T, url, name string, ackWait time.Duration) *cluster.Cluster {
	t.Helper()
	c, err := cluster.Open(t.Context(), cluster.Options{Config: config.Cluster{NATSURL: url}, Name: name, AckWait: ackWait})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}
