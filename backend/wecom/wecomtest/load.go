package wecomtest

import (
	"fmt"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
)

// Load is the bot's load test: Users users send PerUser messages each, all
// at once. Every message carries a token ("u3-m1") that the scripted model
// (Answer) puts in its answer, so each reply can be traced to its sender.
// The in-process test in backend/bot and the benchmark of a `hermes bot`
// process in bench/botload share it.
type Load struct{ Users, PerUser int }

// LoadFromEnv is a load of users users sending 5 messages each to a server
// allowing limit calls a second; HERMES_BOT_LOAD_USERS and
// HERMES_BOT_LOAD_LIMIT change them.
func LoadFromEnv(tb testing.TB, users, limit int) (Load, int) {
	for name, v := range map[string]*int{"HERMES_BOT_LOAD_USERS": &users, "HERMES_BOT_LOAD_LIMIT": &limit} {
		if s := os.Getenv(name); s != "" {
			n, err := strconv.Atoi(s)
			if err != nil || n < 1 {
				tb.Fatalf("%s=%q is not a positive number", name, s)
			}
			*v = n
		}
	}
	return Load{Users: users, PerUser: 5}, limit
}

// User is the sender id of user u.
func (Load) User(u int) string { return fmt.Sprintf("user%03d", u) }

// Sign makes every callback of the load, in user-major order. WeCom
// encrypts and signs on its own machines, so this is done before the clock
// starts.
func (l Load) Sign(tb testing.TB, cb *Callbacks) []*http.Request {
	reqs := make([]*http.Request, l.Users*l.PerUser)
	for u := range l.Users {
		for m := range l.PerUser {
			token := fmt.Sprintf("u%d-m%d", u, m)
			req, err := cb.Request(cb.TextXML(l.User(u), token, token+" please"), time.Now(), Nonce())
			if err != nil {
				tb.Fatal(err)
			}
			reqs[u*l.PerUser+m] = req
		}
	}
	return reqs
}

// Warm opens one connection per user to the bot whose health URL is given,
// as WeCom's servers keep theirs open.
func (l Load) Warm(tb testing.TB, client *http.Client, health string) {
	var wg sync.WaitGroup
	for range l.Users {
		wg.Go(func() {
			resp, err := client.Get(health)
			if err != nil {
				tb.Error(err)
				return
			}
			_ = resp.Body.Close() // only the status is asked
		})
	}
	wg.Wait()
}

// Burst sends every user's callbacks at once, each user's in order on its
// own connection, and returns how long each took to be acknowledged.
func (l Load) Burst(tb testing.TB, cb *Callbacks, reqs []*http.Request) []time.Duration {
	latencies := make([]time.Duration, len(reqs))
	var wg sync.WaitGroup
	for u := range l.Users {
		wg.Go(func() {
			for m := range l.PerUser {
				status, d, err := cb.Do(reqs[u*l.PerUser+m])
				if err != nil || status != http.StatusOK {
					tb.Errorf("user %d message %d: status %d, %v", u, m, status, err)
				}
				latencies[u*l.PerUser+m] = d
			}
		})
	}
	wg.Wait()
	return latencies
}

var (
	tokenRe  = regexp.MustCompile(`u\d+-m\d+`)
	taskRe   = regexp.MustCompile(`(?s)^Task:\n(.*?)(\n\nStanding instructions:|$)`)
	injectRe = regexp.MustCompile(`(?s)^Instruction from the user, added while you were working:\n(.*)$`)
)

// Answer is the scripted model's answer to a request of the load: "done:"
// and the tokens of the run's task and of the instructions injected into
// it (not those of the session's history).
func Answer(req llmtest.Request) string {
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
	return "done: " + strings.Join(tokenRe.FindAllString(strings.Join(texts, " "), -1), " ")
}

// answered are the tokens the answers among msgs carry.
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

// Answered reports whether every user has been sent the answer to each of
// their messages; give it to Server.WaitFor.
func (l Load) Answered(byUser map[string][]string) bool {
	for u := range l.Users {
		if len(answered(byUser[l.User(u)])) < l.PerUser {
			return false
		}
	}
	return true
}

// Check fails tb if a message went unanswered, a user was sent another's
// answer, the server's limit of calls a second was passed, or user ids were
// converted or tokens fetched more than once.
func (l Load) Check(tb testing.TB, s *Server, limit int) {
	for u := range l.Users {
		msgs := s.Messages(l.User(u))
		got := answered(msgs)
		for m := range l.PerUser {
			if !got[fmt.Sprintf("u%d-m%d", u, m)] {
				tb.Errorf("%s: message %d never answered", l.User(u), m)
			}
		}
		for _, text := range msgs {
			for _, tok := range tokenRe.FindAllString(text, -1) {
				if !strings.HasPrefix(tok, fmt.Sprintf("u%d-", u)) {
					tb.Errorf("%s was sent another user's answer: %q", l.User(u), text)
				}
			}
		}
	}
	st := s.Stats()
	if st.OverLimit != 0 || st.MaxPerSecond > limit {
		tb.Errorf("WeCom's limit of %d calls a second was passed: %+v", limit, st)
	}
	if st.Convert != l.Users || st.GetToken != 1 {
		tb.Errorf("%d conversions and %d tokens for %d users, want %d and 1", st.Convert, st.GetToken, l.Users, l.Users)
	}
}

// Percentiles sorts ds and returns its quantiles, rounded to 10 µs.
func Percentiles(ds []time.Duration) func(q float64) time.Duration {
	slices.Sort(ds)
	return func(q float64) time.Duration { return ds[int(q*float64(len(ds)-1))].Round(10 * time.Microsecond) }
}
