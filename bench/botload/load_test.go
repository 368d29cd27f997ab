package botload

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"hermes/backend/llm/llmtest"
	"hermes/backend/wecom/wecomtest"
)

// The WeCom application's settings and the model's key. The secrets go to
// the bot through environment variables, as on a server.
const (
	corpID     = "ww0123456789abcdef"
	corpSecret = "corp-secret-5f1e9d2c7b3a"
	cbToken    = "callback-token-8c2d4e6f"
	aesKey     = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG"
	modelKey   = "sk-botload-3b7e1d9a5c"
)

// BenchmarkBotLoad: every user sends 5 messages at once through the signed
// callback path to a `hermes bot` in its own process. The model holds every
// answer until every callback has been acknowledged, so a callback that
// waited for its run would never return. Every reply must reach its own
// sender with its own answer, nothing may be lost, WeCom's rate limit must
// never be passed, and the bot must exit 0 on Ctrl-C. One iteration is one
// whole load on a fresh home; bench/bot.sh runs one (-benchtime 1x).
func BenchmarkBotLoad(b *testing.B) {
	bin := os.Getenv("HERMES_BIN")
	if bin == "" {
		b.Skip("HERMES_BIN names no hermes binary; bench/bot.sh builds one and runs this benchmark")
	}
	load, limit := wecomtest.LoadFromEnv(b, 200, 500)
	// Each load leaves over a thousand loopback connections in TIME_WAIT for
	// a minute, and many of them make connect() slower.
	if n, ok := timeWait(); ok && n > 1000 {
		b.Logf("bot load: %d connections are still in TIME_WAIT from an earlier load; a minute's wait gives steadier figures", n)
	}
	var all []time.Duration
	for range b.N {
		all = append(all, runLoad(b, bin, load, limit)...)
	}
	p := wecomtest.Percentiles(all)
	for _, q := range []struct {
		q    float64
		unit string
	}{{0.5, "ms-ack-p50"}, {0.95, "ms-ack-p95"}, {0.99, "ms-ack-p99"}} {
		b.ReportMetric(float64(p(q.q))/float64(time.Millisecond), q.unit)
	}
}

// runLoad is one whole load against a fresh bot; it returns the callbacks'
// ack latencies.
func runLoad(b *testing.B, bin string, load wecomtest.Load, limit int) []time.Duration {
	wecom := wecomtest.NewServer(b, corpID, corpSecret, limit)
	acked := make(chan struct{})
	model := llmtest.NewFuncServer(b, func(req llmtest.Request) llmtest.Step {
		return llmtest.Step{Content: wecomtest.Answer(req), Wait: acked}
	})
	home := b.TempDir()
	writeConfig(b, home, model.URL, wecom.URL, limit*9/10) // a margin for the time between leaving and arriving
	bot, callback := startBot(b, bin, home, map[string]string{
		"HERMES_BOTLOAD_MODEL_KEY": modelKey, "HERMES_BOTLOAD_WECOM_SECRET": corpSecret, "HERMES_LANG": "en",
	})
	cb, err := wecomtest.NewCallbacks(callback, cbToken, aesKey, corpID)
	if err != nil {
		b.Fatal(err)
	}
	cb.Client = &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: load.Users}}
	reqs := load.Sign(b, cb)
	load.Warm(b, cb.Client, healthURL(b, callback))

	cpu := newCPUMeter(strconv.Itoa(bot.cmd.Process.Pid))
	start := time.Now()
	latencies := load.Burst(b, cb, reqs)
	ackedIn := time.Since(start)
	ackCPU := cpu.lap()
	close(acked)

	ctx, cancel := context.WithTimeout(b.Context(), 5*time.Minute)
	defer cancel()
	if err := wecom.WaitFor(ctx, load.Answered); err != nil {
		b.Fatalf("%v\nthe bot's log:\n%s", err, bot.errOut)
	}
	replied := time.Since(start)
	replyCPU := cpu.lap()
	load.Check(b, wecom, limit)
	// Counted before the bot stops, which closes its idle connections.
	wecomConns, ok1 := connectionsTo(wecom.URL)
	modelConns, ok2 := connectionsTo(model.URL)
	bot.stop(b)
	for _, s := range []string{corpSecret, cbToken, aesKey, modelKey, "wecomtest-token-"} {
		if strings.Contains(bot.out.String()+bot.errOut.String(), s) {
			b.Errorf("hermes bot printed a secret (%.6s…)", s)
		}
	}

	st := wecom.Stats()
	calls := st.GetToken + st.Convert + st.Send + st.Refused
	p := wecomtest.Percentiles(slices.Clone(latencies))
	b.Logf("bot load: %d users x %d messages to hermes bot in its own process; callbacks acked in %v, all replies in %v",
		load.Users, load.PerUser, ackedIn.Round(time.Millisecond), replied.Round(time.Millisecond))
	b.Logf("bot load: ack latency p50 %v p95 %v p99 %v max %v", p(0.5), p(0.95), p(0.99), p(1))
	if ackCPU.ok {
		cores := time.Duration(runtime.NumCPU())
		b.Logf("bot load: CPU while acking (%v on %d cores): %v", (ackedIn * cores).Round(time.Millisecond), cores, ackCPU)
		b.Logf("bot load: CPU from the acks to the last reply (%v on %d cores): %v", ((replied - ackedIn) * cores).Round(time.Millisecond), cores, replyCPU)
	}
	b.Logf("bot load: WeCom API calls %d (gettoken %d, conversions %d, message/send %d), limit %d/s, most in one second %d, over the limit %d",
		calls, st.GetToken, st.Convert, st.Send, limit, st.MaxPerSecond, st.OverLimit)
	if ok1 && ok2 {
		b.Logf("bot load: TCP connections the bot opened: %d to WeCom for %d calls, %d to the model for %d requests",
			wecomConns, calls, modelConns, len(model.Requests()))
	}
	return latencies
}

// writeConfig writes the bot's hermes.toml: the react strategy without
// routing, so each task is one model turn as in backend/bot's load test.
func writeConfig(b *testing.B, home, modelURL, wecomURL string, rate int) {
	cfg := fmt.Sprintf(`[agent]
strategy = "react"
route = false

[model]
base_url = %q
model = "test-model"
api_key_env = "HERMES_BOTLOAD_MODEL_KEY"

[bot]
platform = "wecom"
webhook_secret = %q
encoding_aes_key = %q
corp_id = %q
secret_env = "HERMES_BOTLOAD_WECOM_SECRET"
agent_id = 1000002
api_base = %q
rate_limit = %d
user_rate_limit = 1000
`, modelURL, cbToken, aesKey, corpID, wecomURL, rate)
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte(cfg), 0o600); err != nil {
		b.Fatal(err)
	}
}

// healthURL is the health check beside the callback URL.
func healthURL(b *testing.B, callback string) string {
	u, err := url.Parse(callback)
	if err != nil {
		b.Fatal(err)
	}
	return u.Scheme + "://" + u.Host + "/healthz"
}
