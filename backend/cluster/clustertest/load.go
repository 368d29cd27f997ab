package clustertest

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"testing"
	"time"

	"hermes/backend/wecom/wecomtest"
)

// Result is what a load across the replicas came to.
type Result struct {
	Messages  int
	Lost      int // messages no answer named
	Twice     int // messages more than one answer named
	AckP95    time.Duration
	TakenOver int // tasks a replica took after another had taken them
	Elapsed   time.Duration
}

func (r Result) String() string {
	return fmt.Sprintf("cluster: %d messages, %d lost, %d answered twice, ack p95 %d ms, %d tasks taken over",
		r.Messages, r.Lost, r.Twice, r.AckP95.Milliseconds(), r.TakenOver)
}

// Load sends load.PerUser messages from each of load.Users users at once,
// message m of user u to replica (u+m) mod len(rs), each user's in order on
// a connection of its own; release is then closed (the scripted model
// holds its answers until then), and if die is set it is called (a replica
// dies with its tasks taken). Load waits for every message to be answered,
// shuts every replica down so that no late answer is missed, and counts.
func Load(tb testing.TB, wecom *wecomtest.Server, rs []*Replica, load wecomtest.Load, release chan struct{}, die func()) Result {
	tb.Helper()
	n := load.Users * load.PerUser
	reqs := make([]*http.Request, n)
	cbs := make([]*wecomtest.Callbacks, len(rs))
	for i, r := range rs {
		cb := *r.CB
		cb.Client = &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: load.Users}}
		cbs[i] = &cb
	}
	for u := range load.Users {
		for m := range load.PerUser {
			cb := cbs[(u+m)%len(rs)]
			token := fmt.Sprintf("u%d-m%d", u, m)
			req, err := cb.Request(cb.TextXML(load.User(u), token, token+" please"), time.Now(), wecomtest.Nonce())
			if err != nil {
				tb.Fatal(err)
			}
			reqs[u*load.PerUser+m] = req
		}
	}
	start := time.Now()
	acks := load.Burst(tb, cbs[0], reqs) // Do sends each request to its own URL
	close(release)
	if die != nil {
		die()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := wecom.WaitFor(ctx, load.Answered); err != nil {
		tb.Error(err)
	}
	elapsed := time.Since(start)
	res := Result{Messages: n, Elapsed: elapsed, AckP95: wecomtest.Percentiles(acks)(0.95)}
	for _, r := range rs {
		_, over := r.Tasks.Counts()
		res.TakenOver += over
		r.Close()
	}
	res.Lost, res.Twice = Count(wecom, load)
	return res
}

var tokenRe = regexp.MustCompile(`u\d+-m\d+`)
