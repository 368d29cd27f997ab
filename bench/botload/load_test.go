package botload

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"hermes/backend/bot/wecomtest"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
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

// perUser is how many messages each user sends.
const perUser = 5

// loadSize is HERMES_BOT_LOAD_USERS users (default 200), WeCom allowing
// HERMES_BOT_LOAD_LIMIT calls a second (default 500).
func loadSize(b *testing.B) (users, limit int) {
	users, limit = 200, 500
	for name, v := range map[string]*int{"HERMES_BOT_LOAD_USERS": &users, "HERMES_BOT_LOAD_LIMIT": &limit} {
		if s := os.Getenv(name); s != "" {
			n, err := strconv.Atoi(s)
			if err != nil || n < 1 {
				b.Fatalf("%s=%q is not a positive number", name, s)
			}
			*v = n
		}
	}
	return users, limit
}

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
	users, limit := loadSize(b)
	// Each load leaves over a thousand loopback connections in TIME_WAIT for
	// a minute, and many of them make connect() slower.
	if n, ok := timeWait(); ok && n > 1000 {
		b.Logf("bot load: %d connections are still in TIME_WAIT from an earlier load; a minute's wait gives steadier figures", n)
	}
	var all []time.Duration
	for range b.N {
		all = append(all, runLoad(b, bin, users, limit)...)
	}
	p := percentiles(all)
	for _, q := range []struct {
		q    float64
		unit string
	}{{0.5, "ms-ack-p50"}, {0.95, "ms-ack-p95"}, {0.99, "ms-ack-p99"}} {
		b.ReportMetric(float64(p(q.q))/float64(time.Millisecond), q.unit)
	}
}

var (
	tokenRe  = regexp.MustCompile(`u\d+-m\d`)
	taskRe   = regexp.MustCompile(`(?s)^Task:\n(.*?)(\n\nStanding instructions:|$)`)
	injectRe = regexp.MustCompile(`(?s)^Instruction from the user, added while you were working:\n(.*)$`)
)

// tokensOf are the message tokens of a request's task and of the
// instructions injected into it, not those of the session's history.
func tokensOf(req llmtest.Request) []string {
	var texts []string
	for _, m := range req.Messages {
		if m.Role != llm.RoleUser {
			continue
		}
		if g := taskRe.FindStringSubmatch(m.Content); g != nil {
			texts = append(texts, g[1])
		}
		if g := injectRe.FindStringSubmatch(m.Content); g != nil {
			texts = append(texts, g[1])
		}
	}
	return tokenRe.FindAllString(strings.Join(texts, " "), -1)
}

func user(u int) string { return fmt.Sprintf("user%03d", u) }

// runLoad is one whole load against a fresh bot; it returns the callbacks'
// ack latencies.
func runLoad(b *testing.B, bin string, users, limit int) []time.Duration {
	wecom := wecomtest.NewServer(b, corpID, corpSecret, limit)
	acked := make(chan struct{})
	model := llmtest.NewFuncServer(b, func(req llmtest.Request) llmtest.Step {
		return llmtest.Step{Content: "done: " + strings.Join(tokensOf(req), " "), Wait: acked}
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
	cb.Client = &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: users}}
	reqs := signAll(b, cb, users)
	warm(b, cb.Client, callback, users)

	cpu := newCPUMeter(strconv.Itoa(bot.cmd.Process.Pid))
	start := time.Now()
	latencies := burst(b, cb, reqs, users)
	ackedIn := time.Since(start)
	ackCPU := cpu.lap()
	close(acked)

	ctx, cancel := context.WithTimeout(b.Context(), 5*time.Minute)
	defer cancel()
	if err := wecom.WaitFor(ctx, func(byUser map[string][]string) bool {
		for u := range users {
			if len(answered(byUser[user(u)])) < perUser {
				return false
			}
		}
		return true
	}); err != nil {
		b.Fatalf("%v\nthe bot's log:\n%s", err, bot.errOut)
	}
	replied := time.Since(start)
	replyCPU := cpu.lap()
	checkReplies(b, wecom, users, limit)
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
	p := percentiles(slices.Clone(latencies))
	b.Logf("bot load: %d users x %d messages to hermes bot in its own process; callbacks acked in %v, all replies in %v",
		users, perUser, ackedIn.Round(time.Millisecond), replied.Round(time.Millisecond))
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

// signAll makes every user's callbacks. WeCom encrypts and signs on its own
// machines, so this is done before the clock starts.
func signAll(b *testing.B, cb *wecomtest.Callbacks, users int) []*http.Request {
	reqs := make([]*http.Request, users*perUser)
	for u := range users {
		for m := range perUser {
			token := fmt.Sprintf("u%d-m%d", u, m)
			req, err := cb.Request(cb.TextXML(user(u), token, token+" please"), time.Now(), wecomtest.Nonce())
			if err != nil {
				b.Fatal(err)
			}
			reqs[u*perUser+m] = req
		}
	}
	return reqs
}

// burst sends every user's callbacks at once, each user's in order on its
// own connection, and returns how long each took to be acknowledged.
func burst(b *testing.B, cb *wecomtest.Callbacks, reqs []*http.Request, users int) []time.Duration {
	latencies := make([]time.Duration, len(reqs))
	var wg sync.WaitGroup
	for u := range users {
		wg.Go(func() {
			for m := range perUser {
				status, d, err := cb.Do(reqs[u*perUser+m])
				if err != nil || status != http.StatusOK {
					b.Errorf("user %d message %d: status %d, %v", u, m, status, err)
				}
				latencies[u*perUser+m] = d
			}
		})
	}
	wg.Wait()
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

// warm opens one connection per user before the clock starts, as WeCom's
// servers keep theirs.
func warm(b *testing.B, client *http.Client, callback string, users int) {
	u, err := url.Parse(callback)
	if err != nil {
		b.Fatal(err)
	}
	health := u.Scheme + "://" + u.Host + "/healthz"
	var wg sync.WaitGroup
	for range users {
		wg.Go(func() {
			resp, err := client.Get(health)
			if err != nil {
				b.Error(err)
				return
			}
			resp.Body.Close()
		})
	}
	wg.Wait()
}

// answered are the message tokens that the run answers among msgs name.
func answered(msgs []string) map[string]bool {
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

// checkReplies fails the benchmark if a message went unanswered, a user was
// sent another's answer, the rate limit was passed, or user ids were
// converted or tokens fetched more than once.
func checkReplies(b *testing.B, wecom *wecomtest.Server, users, limit int) {
	for u := range users {
		msgs := wecom.Messages(user(u))
		got := answered(msgs)
		for m := range perUser {
			if !got[fmt.Sprintf("u%d-m%d", u, m)] {
				b.Errorf("%s: message %d never answered", user(u), m)
			}
		}
		for _, text := range msgs {
			for _, tok := range tokenRe.FindAllString(text, -1) {
				if !strings.HasPrefix(tok, fmt.Sprintf("u%d-", u)) {
					b.Errorf("%s was sent another user's answer: %q", user(u), text)
				}
			}
		}
	}
	st := wecom.Stats()
	if st.OverLimit != 0 || st.MaxPerSecond > limit {
		b.Errorf("WeCom's limit of %d calls a second was passed: %+v", limit, st)
	}
	if st.Convert != users || st.GetToken != 1 {
		b.Errorf("%d conversions and %d tokens for %d users, want %d and 1", st.Convert, st.GetToken, users, users)
	}
}

// percentiles sorts ds and returns its quantiles, rounded to 10 µs.
func percentiles(ds []time.Duration) func(q float64) time.Duration {
	slices.Sort(ds)
	return func(q float64) time.Duration { return ds[int(q*float64(len(ds)-1))].Round(10 * time.Microsecond) }
}
