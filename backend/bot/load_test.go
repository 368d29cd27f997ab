package bot_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"hermes/backend/llm/llmtest"
	"hermes/backend/wecom/wecomtest"
)

// TestBot_Load: every user sends 5 messages at once through the signed
// callback path. The model holds every answer until every callback has been
// acknowledged, so a callback that waited for its run would never return.
// Every reply must reach its own sender with its own answer, nothing may be
// lost, and WeCom's rate limit must never be passed.
func TestBot_Load(t *testing.T) {
	// 20 users in go test; HERMES_BOT_LOAD_USERS=200 for the full size
	// (bench/bot.sh runs it against a hermes bot process of its own).
	load, limit := wecomtest.LoadFromEnv(t, 20, 100)
	users := load.Users
	wecom := wecomtest.NewServer(t, testCorpID, testSecret, limit)
	acked := make(chan struct{})
	model := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		return llmtest.Step{Content: wecomtest.Answer(req), Wait: acked}
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
	reqs := load.Sign(t, cb)
	load.Warm(t, cb.Client, timed.URL+"/healthz")

	start := time.Now()
	latencies := load.Burst(t, cb, reqs)
	ackedIn := time.Since(start)
	close(acked)

	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	if err := wecom.WaitFor(ctx, load.Answered); err != nil {
		t.Fatal(err)
	}
	replied := time.Since(start)
	load.Check(t, wecom, limit)

	st := wecom.Stats()
	p, hp := wecomtest.Percentiles(latencies), wecomtest.Percentiles(handled)
	t.Logf("bot load: %d users x %d messages; callbacks acked in %v, all replies in %v", users, load.PerUser, ackedIn.Round(time.Millisecond), replied.Round(time.Millisecond))
	t.Logf("bot load: ack latency p50 %v p95 %v p99 %v max %v", p(0.5), p(0.95), p(0.99), p(1))
	t.Logf("bot load: in the handler p50 %v p95 %v p99 %v max %v", hp(0.5), hp(0.95), hp(0.99), hp(1))
	t.Logf("bot load: WeCom API calls %d (gettoken %d, conversions %d, message/send %d), limit %d/s, most in one second %d, over the limit %d",
		st.GetToken+st.Convert+st.Send+st.Refused, st.GetToken, st.Convert, st.Send, limit, st.MaxPerSecond, st.OverLimit)
}
