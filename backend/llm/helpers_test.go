package llm_test

import (
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"hermes/backend/i18n"
	"hermes/backend/llm"
)

// testKey is the API key every test client sends; no error text may contain it.
const testKey = "sk-hermes-test-5ecret-9f8e7d6c"

func zeroBackoff(int) time.Duration { return 0 }

// newClient returns a streaming client for base with three retries (the
// config's default) and a zero backoff; mods adjust the config.
func newClient(base string, mods ...func(*llm.Config)) *llm.Client {
	cfg := llm.Config{BaseURL: base, APIKey: testKey, Model: "test-model", Stream: true, MaxRetries: 3, Backoff: zeroBackoff}
	for _, m := range mods {
		m(&cfg)
	}
	return llm.New(cfg)
}

// recorder collects what a Chat call reported through its callbacks.
type recorder struct {
	mu      sync.Mutex
	deltas  []string
	retries []llm.Retry
}

func (r *recorder) request(msgs ...llm.Message) llm.Request {
	if len(msgs) == 0 {
		msgs = []llm.Message{{Role: llm.RoleUser, Content: "hi"}}
	}
	return llm.Request{
		Messages: msgs,
		OnDelta: func(s string) {
			r.mu.Lock()
			r.deltas = append(r.deltas, s)
			r.mu.Unlock()
		},
		OnRetry: func(rt llm.Retry) {
			r.mu.Lock()
			r.retries = append(r.retries, rt)
			r.deltas = nil // what a caller does: drop the partial text
			r.mu.Unlock()
		},
	}
}

// chat calls c.Chat and fails the test if any error text it produced, in
// either language, or any retry note contains the API key.
func chat(t *testing.T, c *llm.Client, rec *recorder, req llm.Request) (llm.Response, error) {
	t.Helper()
	resp, err := c.Chat(t.Context(), req)
	assertNoKey(t, err)
	rec.mu.Lock()
	for _, r := range rec.retries {
		if strings.Contains(r.Err, testKey) {
			t.Errorf("retry note contains the API key: %q", r.Err)
		}
	}
	rec.mu.Unlock()
	return resp, err
}

// assertNoKey fails the test if err's text in any language contains the key.
func assertNoKey(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	texts := []string{err.Error()}
	var ie *i18n.Error
	if errors.As(err, &ie) {
		texts = append(texts, i18n.In(i18n.EN, ie.Key, ie.Args...), i18n.In(i18n.ZH, ie.Key, ie.Args...))
	}
	for _, s := range texts {
		if strings.Contains(s, testKey) {
			t.Errorf("error text contains the API key: %q", s)
		}
	}
}

// english renders err in English, whatever the test machine's locale.
func english(err error) string {
	var ie *i18n.Error
	if errors.As(err, &ie) {
		return i18n.In(i18n.EN, ie.Key, ie.Args...)
	}
	return err.Error()
}

// closedAddr returns a loopback address nothing listens on.
func closedAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// statusServer answers every request with status and an error body.
func statusServer(t *testing.T, status int, message string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write([]byte(`{"error":{"message":"` + message + `","type":"test"}}`))
	}))
	t.Cleanup(srv.Close)
	return srv
}
