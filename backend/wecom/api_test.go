package wecom_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"hermes/backend/chatapi"
	"hermes/backend/store"
	"hermes/backend/wecom"
	"hermes/backend/wecom/wecomtest"
)

const (
	testCorpID = "ww0123456789abcdef"
	// testSecret and testToken stand for the corp secret and the callback
	// token; no log line, reply or error may hold them.
	testSecret = "corp-secret-5f1e9d2c7b3a"
	testToken  = "callback-token-8c2d4e6f"
	testAESKey = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG"
)

func noBackoff(int) time.Duration { return 0 }

func openStore(t *testing.T, path string) *store.Store {
	t.Helper()
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func newAPI(srv *wecomtest.Server, cache chatapi.UserIDCache, rate int) *wecom.API {
	return wecom.NewAPI(wecom.APIOptions{
		Base: srv.URL, CorpID: testCorpID, Secret: testSecret, AgentID: 1000002,
		Rate: rate, UserRate: 1000, Cache: cache, Backoff: noBackoff,
	})
}

func TestAPI_TokenFetchedOnceForManyCallers(t *testing.T) {
	srv := wecomtest.NewServer(t, testCorpID, testSecret, 0)
	api := newAPI(srv, nil, 1000)
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Go(func() {
			if err := api.SendText(t.Context(), "user", "hello "+string(rune('a'+i%26))); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if st := srv.Stats(); st.GetToken != 1 || st.Send != 50 {
		t.Fatalf("50 concurrent sends: %d gettoken, %d sent; want 1 and 50", st.GetToken, st.Send)
	}
}

func TestAPI_ExpiredTokenRefreshedOnce(t *testing.T) {
	srv := wecomtest.NewServer(t, testCorpID, testSecret, 0)
	api := newAPI(srv, nil, 1000)
	if err := api.SendText(t.Context(), "user", "first"); err != nil {
		t.Fatal(err)
	}
	srv.ExpireTokens() // the next calls meet 42001
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			if err := api.SendText(t.Context(), "user", "after expiry"); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	st := srv.Stats()
	if st.GetToken != 2 {
		t.Fatalf("%d gettoken calls, want 2: one at first, one refresh for all 20 callers", st.GetToken)
	}
	if st.Send != 21 {
		t.Fatalf("%d messages sent, want 21", st.Send)
	}
}

func TestAPI_RetriesWhenBusy(t *testing.T) {
	cases := []struct {
		name   string
		faults []int
		ok     bool
	}{
		{"system busy twice", []int{wecomtest.CodeBusy, wecomtest.CodeBusy}, true},
		{"frequency limit", []int{wecomtest.CodeFreqLimit}, true},
		{"busy past every attempt", []int{-1, -1, -1, -1, -1, -1}, false},
		{"a code that is not transient", []int{60020}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := wecomtest.NewServer(t, testCorpID, testSecret, 0)
			var waits []time.Duration
			api := wecom.NewAPI(wecom.APIOptions{
				Base: srv.URL, CorpID: testCorpID, Secret: testSecret, AgentID: 1, Rate: 1000, UserRate: 1000,
				Backoff: func(n int) time.Duration { waits = append(waits, time.Duration(n)); return 0 },
			})
			srv.FailSends(tc.faults...)
			err := api.SendText(t.Context(), "user", "hello")
			if tc.ok != (err == nil) {
				t.Fatalf("error %v, want ok=%v", err, tc.ok)
			}
			if tc.ok && len(waits) != len(tc.faults) {
				t.Fatalf("backed off %d times for %d busy answers", len(waits), len(tc.faults))
			}
			var apiErr *wecom.APIError
			if !tc.ok && (!errors.As(err, &apiErr) || !errors.Is(err, wecom.ErrAPI)) {
				t.Fatalf("error %v is not an *APIError", err)
			}
			if err != nil && (strings.Contains(err.Error(), testSecret) || strings.Contains(err.Error(), "wecomtest-token")) {
				t.Fatalf("error %q holds a secret", err)
			}
		})
	}
}

func TestAPI_WrongSecretSaysSoWithoutTheSecret(t *testing.T) {
	srv := wecomtest.NewServer(t, testCorpID, testSecret, 0)
	api := wecom.NewAPI(wecom.APIOptions{Base: srv.URL, CorpID: testCorpID, Secret: "wrong-" + testSecret, Rate: 10, UserRate: 10})
	err := api.SendText(t.Context(), "user", "hello")
	var apiErr *wecom.APIError
	if !errors.As(err, &apiErr) || apiErr.Code != wecomtest.CodeInvalidSecret || apiErr.Op != "gettoken" {
		t.Fatalf("error %v, want gettoken's 40001", err)
	}
	if strings.Contains(err.Error(), testSecret) {
		t.Fatalf("error %q holds the secret", err)
	}
}

func TestAPI_SplitsLongText(t *testing.T) {
	srv := wecomtest.NewServer(t, testCorpID, testSecret, 0)
	api := newAPI(srv, nil, 1000)
	text := strings.Repeat("第一段文字。", 300) + "\n" + strings.Repeat("second paragraph ", 200)
	if err := api.SendText(t.Context(), "user", text); err != nil {
		t.Fatal(err)
	}
	got := srv.Messages("user")
	if len(got) < 2 || strings.Join(got, "") != text {
		t.Fatalf("%d parts that do not add up to the text", len(got))
	}
}

func TestAPI_RateLimitNeverPassed(t *testing.T) {
	const limit = 20
	srv := wecomtest.NewServer(t, testCorpID, testSecret, limit)
	api := newAPI(srv, nil, limit-2) // a margin for the time between leaving and arriving
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			if err := api.SendText(t.Context(), "u"+string(rune('a'+i%5)), "hi"); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if st := srv.Stats(); st.OverLimit != 0 || st.MaxPerSecond > limit || st.Send != 40 {
		t.Fatalf("stats %+v: the limit of %d per second was passed or messages were lost", st, limit)
	}
}

func TestAPI_UserIDConvertedOnceAndKeptAcrossRestart(t *testing.T) {
	srv := wecomtest.NewServer(t, testCorpID, testSecret, 0)
	srv.MapOpenID("woAJ2GCAAAXtWyujaWJHDDGi0mACHAAA", "zhangsan")
	path := filepath.Join(t.TempDir(), "hermes.db")
	store, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	api := newAPI(srv, store, 1000)
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() {
			id, err := api.UserID(t.Context(), "woAJ2GCAAAXtWyujaWJHDDGi0mACHAAA")
			if err != nil || id != "zhangsan" {
				t.Errorf("UserID: %q %v", id, err)
			}
		})
	}
	wg.Wait()
	if id, _ := api.UserID(t.Context(), "lisi"); id != "lisi" {
		t.Fatalf("an id that is already a user id converted to %q", id)
	}
	if n := srv.Stats().Convert; n != 2 {
		t.Fatalf("%d conversion calls, want 2 (one per id)", n)
	}
	store.Close()

	// A restarted process reads the cache and asks WeCom nothing.
	store = openStore(t, path)
	api = newAPI(srv, store, 1000)
	for _, id := range []string{"woAJ2GCAAAXtWyujaWJHDDGi0mACHAAA", "lisi"} {
		if _, err := api.UserID(context.Background(), id); err != nil {
			t.Fatal(err)
		}
	}
	if n := srv.Stats().Convert; n != 2 {
		t.Fatalf("%d conversion calls after the restart, want still 2", n)
	}
}
