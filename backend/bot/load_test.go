package bot_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"hermes/backend/bot/wecomtest"
	"hermes/backend/llm/llmtest"
)

// loadSize is the load test's size: HERMES_BOT_LOAD_USERS users (20 in go
// test, 200 in bench/bot.sh) sending 5 messages each, WeCom allowing
// HERMES_BOT_LOAD_LIMIT calls a second.
func loadSize(t *testing.T) (users, limit int) {
	users, limit = 20, 100
	for name, v := range map[string]*int{"HERMES_BOT_LOAD_USERS": &users, "HERMES_BOT_LOAD_LIMIT": &limit} {
		if s := os.Getenv(name); s != "" {
			n, err := strconv.Atoi(s)
			if err != nil || n < 1 {
				t.Fatalf("%s=%q is not a positive number", name, s)
			}
			*v = n
		}
	}
	return users, limit
}

var tokenRe = regexp.MustCompile(`u\d+-m\d`)

// TestBot_Load: every user sends 5 messages at once through the signed
// callback path. The model holds every answer until every callback has been
// acknowledged, so a callback that waited for its run would never return.
// Every reply must reach its own sender with its own answer, nothing may be
// lost, and WeCom's rate limit must never be passed.
func TestBot_Load(t *testing.T) {
	const perUser = 5
	users, limit := loadSize(t)
	wecom := wecomtest.NewServer(t, testCorpID, testSecret, limit)
	acked := make(chan struct{})
	model := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		mine := tokenRe.FindAllString(taskOf(req)+" "+strings.Join(injectedOf(req), " "), -1)
		return llmtest.Step{Content: "done: " + strings.Join(mine, " "), Wait: acked}
	})
	cfg := botConfig(wecom)
	cfg.RateLimit = limit * 9 / 10 // a margin for the time between leaving and arriving
	h := newHarness(t, "", model, cfg)
	// The handler's own time, apart from the load generator's, which shares
	// the machine.
	var handlerMu sync.Mutex
	var handled []time.Duration
	inner := h.bot.Handler()
	timed := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		inner.ServeHTTP(w, r)
		handlerMu.Lock()
		handled = append(handled, time.Since(start))
		handlerMu.Unlock()
	}))
	t.Cleanup(timed.Close)
	cb, err := wecomtest.NewCallbacks(timed.URL+cfg.CallbackPath(), testToken, testAESKey, testCorpID)
	if err != nil {
		t.Fatal(err)
	}
	cb.Client = &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: users}}

	// WeCom encrypts and signs on its own machines: the requests are made
	// before the clock starts.
	user := func(u int) string { return fmt.Sprintf("user%03d", u) }
	reqs := make([]*http.Request, users*perUser)
	for u := range users {
		for m := range perUser {
			token := fmt.Sprintf("u%d-m%d", u, m)
			if reqs[u*perUser+m], err = cb.Request(cb.TextXML(user(u), token, token+" please"), time.Now(), wecomtest.Nonce()); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Each sender opens its connection before the clock starts, as WeCom's
	// servers keep theirs.
	var warm sync.WaitGroup
	for range users {
		warm.Go(func() {
			resp, err := cb.Client.Get(timed.URL + "/healthz")
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
		})
	}
	warm.Wait()
	latencies := make([]time.Duration, users*perUser)
	var wg sync.WaitGroup
	start := time.Now()
	for u := range users {
		wg.Go(func() {
			for m := range perUser {
				status, d, err := cb.Do(reqs[u*perUser+m])
				if err != nil || status != 200 {
					t.Errorf("user %d message %d: status %d, %v", u, m, status, err)
				}
				latencies[u*perUser+m] = d
			}
		})
	}
	wg.Wait()
	ackedIn := time.Since(start)
	close(acked)

	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	answered := func(msgs []string) map[string]bool {
		got := map[string]bool{}
		for _, text := range msgs {
			if strings.HasPrefix(text, "done:") {
				for _, tok := range tokenRe.FindAllString(text, -1) {
					got[tok] = true
				}
			}
		}
		return got
	}
	err = wecom.WaitFor(ctx, func(byUser map[string][]string) bool {
		for u := range users {
			if len(answered(byUser[user(u)])) < perUser {
				return false
			}
		}
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	replied := time.Since(start)
	for u := range users {
		msgs := wecom.Messages(user(u))
		got := answered(msgs)
		for m := range perUser {
			if !got[fmt.Sprintf("u%d-m%d", u, m)] {
				t.Errorf("%s: message %d never answered", user(u), m)
			}
		}
		for _, text := range msgs {
			for _, tok := range tokenRe.FindAllString(text, -1) {
				if !strings.HasPrefix(tok, fmt.Sprintf("u%d-", u)) {
					t.Errorf("%s was sent another user's answer: %q", user(u), text)
				}
			}
		}
	}
	st := wecom.Stats()
	if st.OverLimit != 0 || st.MaxPerSecond > limit {
		t.Errorf("WeCom's limit of %d calls a second was passed: %+v", limit, st)
	}
	if st.Convert != users || st.GetToken != 1 {
		t.Errorf("%d conversions and %d tokens for %d users, want %d and 1", st.Convert, st.GetToken, users, users)
	}

	pct := func(ds []time.Duration) func(float64) time.Duration {
		slices.Sort(ds)
		return func(q float64) time.Duration { return ds[int(q*float64(len(ds)-1))].Round(10 * time.Microsecond) }
	}
	p, hp := pct(latencies), pct(handled)
	t.Logf("bot load: %d users x %d messages; callbacks acked in %v, all replies in %v", users, perUser, ackedIn.Round(time.Millisecond), replied.Round(time.Millisecond))
	t.Logf("bot load: ack latency p50 %v p95 %v p99 %v max %v", p(0.5), p(0.95), p(0.99), p(1))
	t.Logf("bot load: in the handler p50 %v p95 %v p99 %v max %v", hp(0.5), hp(0.95), hp(0.99), hp(1))
	t.Logf("bot load: WeCom API calls %d (gettoken %d, conversions %d, message/send %d), limit %d/s, most in one second %d, over the limit %d",
		st.GetToken+st.Convert+st.Send+st.Refused, st.GetToken, st.Convert, st.Send, limit, st.MaxPerSecond, st.OverLimit)
}
