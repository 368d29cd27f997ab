package bot

import (
	"math"
	"runtime/metrics"
	"testing"
	"time"
)

// fixedGate is a gate whose limit nothing adjusts but the test.
func fixedGate(limit int) *runGate {
	g := newRunGate()
	g.limit, g.watching = limit, true
	return g
}

func TestGate_RunBeyondTheLimitWaitsForOneToEnd(t *testing.T) {
	g := fixedGate(2)
	if first, second := g.enter(), g.enter(); !first || !second {
		t.Fatal("the first two runs were refused")
	}
	entered := make(chan bool)
	go func() { entered <- g.enter() }()
	waitForWaiters(g, 1)
	select {
	case <-entered:
		t.Fatal("a third run started beside two at a limit of two")
	default:
	}
	g.leave()
	if !<-entered {
		t.Fatal("the third run was refused once one had ended")
	}
}

func TestGate_CloseRefusesTheRunsWaiting(t *testing.T) {
	g := fixedGate(1)
	g.enter()
	entered := make(chan bool)
	go func() { entered <- g.enter() }()
	waitForWaiters(g, 1)
	g.close()
	if <-entered {
		t.Fatal("a run waiting started after the bot closed")
	}
	if g.enter() {
		t.Fatal("a run started after the bot closed")
	}
}

func TestGate_NarrowsWhenGoroutinesWaitAndWidensWhenTheyDoNot(t *testing.T) {
	g := fixedGate(100)
	g.live = 100
	g.adjust(lagTarget + time.Millisecond)
	if g.limit != 75 {
		t.Fatalf("limit %d after a slow quarter second with 100 live; want 75", g.limit)
	}
	g.adjust(lagTarget) // at the target: the limit reached, it widens
	if g.limit != 82 {
		t.Fatalf("limit %d after a quick quarter second at the limit; want 82", g.limit)
	}
	g.live = 10
	g.adjust(0)
	if g.limit != 82 {
		t.Fatalf("limit %d after a quick quarter second under the limit; want it kept at 82", g.limit)
	}
	g.live = 2
	g.adjust(time.Second)
	if g.limit != leastLimit {
		t.Fatalf("limit %d with 2 live and goroutines waiting a second; want the least, %d", g.limit, leastLimit)
	}
}

func TestPercentileSince_ReadsOnlyTheNewSamples(t *testing.T) {
	h := &metrics.Float64Histogram{
		Buckets: []float64{0, 0.001, 0.01, 0.1, math.Inf(1)},
		Counts:  []uint64{500, 10, 5, 3},
	}
	before := []uint64{400, 10, 0, 0}
	// Since before: 100 under 1 ms, 5 of 10-100 ms, 3 over 100 ms.
	if got := percentileSince(h, before, 0.90); got != time.Millisecond {
		t.Fatalf("p90 %v; want 1ms", got)
	}
	if got := percentileSince(h, before, 0.99); got != 100*time.Millisecond {
		t.Fatalf("p99 %v; want 100ms (the upper edge of its bucket)", got)
	}
	if got := percentileSince(h, h.Counts, 0.99); got != 0 {
		t.Fatalf("p99 of no new samples %v; want 0", got)
	}
}

func TestSched99_ReadsThisGosScheduler(t *testing.T) {
	lag := newSched99()
	lag()
	done := make(chan struct{})
	for range 100 {
		go func() { done <- struct{}{} }()
	}
	for range 100 {
		<-done
	}
	if got := lag(); got <= 0 || got > time.Minute {
		t.Fatalf("scheduling latency %v after 100 goroutines ran; want a positive figure", got)
	}
}
