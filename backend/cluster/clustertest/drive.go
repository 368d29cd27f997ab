package clustertest

import (
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"hermes/backend/wecom/wecomtest"
)

// Drive is an open-loop load on replica processes behind one callback
// URL: message i goes out at start + i/Rate whatever the answers before it
// (as a company's users write), from user i mod Users (so each user's
// messages come Users/Rate apart), to replica (user+message) mod replicas.
// A callback the replica does not acknowledge (it is down, or dying, or
// refuses it) is sent again at once to the next replica, freshly signed,
// as a balancer in front of the replicas (or WeCom's resend) does.
type Drive struct {
	Load wecomtest.Load
	// Rate is messages a second; 0 sends them all at once.
	Rate float64
	// At is called, in order of i, once message i is sent; it may kill or
	// restart a replica (the load goes on meanwhile).
	At func(i int)
}

// Sent is what the callbacks of a Drive came to.
type Sent struct {
	Acks     []time.Duration // of each message's acknowledged callback
	Resent   int             // callbacks sent again to another replica
	Refusals map[string]int  // why: the HTTP status or the error
	Sending  time.Duration   // from the first message to the last one's ack
}

// Run sends the load to procs and returns once every callback is
// acknowledged.
func (d Drive) Run(tb testing.TB, procs []*Proc) Sent {
	tb.Helper()
	n := d.Load.Users * d.Load.PerUser
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		MaxIdleConnsPerHost: 256, IdleConnTimeout: time.Minute,
	}}
	out := Sent{Acks: make([]time.Duration, n), Refusals: map[string]int{}}
	var mu sync.Mutex
	var resent atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for i := range n {
		if d.Rate > 0 {
			time.Sleep(time.Until(start.Add(time.Duration(float64(i) / d.Rate * float64(time.Second)))))
		}
		u, m := i%d.Load.Users, i/d.Load.Users
		wg.Go(func() {
			token := fmt.Sprintf("u%d-m%d", u, m)
			for attempt := 0; ; attempt++ {
				p := procs[(u+m+attempt)%len(procs)]
				p.mu.Lock()
				cb := p.CB
				p.mu.Unlock()
				req, err := cb.Request(cb.TextXML(d.Load.User(u), token, token+" please"), time.Now(), wecomtest.Nonce())
				if err != nil {
					tb.Error(err)
					return
				}
				began := time.Now()
				resp, err := client.Do(req)
				took := time.Since(began)
				why := ""
				switch {
				case err != nil:
					why = "no answer (replica down)"
				case resp.StatusCode != http.StatusOK:
					why = fmt.Sprintf("HTTP %d", resp.StatusCode)
				}
				if err == nil {
					_ = resp.Body.Close()
				}
				if why == "" {
					out.Acks[i] = took
					return
				}
				resent.Add(1)
				mu.Lock()
				out.Refusals[why]++
				mu.Unlock()
				if attempt > 20*len(procs) {
					tb.Errorf("%s: no replica acknowledged it after %d tries (%s)", token, attempt, why)
					return
				}
			}
		})
		if d.At != nil {
			d.At(i)
		}
	}
	wg.Wait()
	out.Sending = time.Since(start)
	out.Resent = int(resent.Load())
	return out
}

// Count is how many of the load's messages no answer the WeCom stand-in
// received named, and how many more than one did.
func Count(wecom *wecomtest.Server, load wecomtest.Load) (lost, twice int) {
	for u := range load.Users {
		named := map[string]int{}
		for _, text := range wecom.Messages(load.User(u)) {
			if len(text) >= 5 && text[:5] == "done:" {
				for _, tok := range tokenRe.FindAllString(text, -1) {
					named[tok]++
				}
			}
		}
		for m := range load.PerUser {
			switch k := named[fmt.Sprintf("u%d-m%d", u, m)]; {
			case k == 0:
				lost++
			case k > 1:
				twice++
			}
		}
	}
	return lost, twice
}
