package llmtest

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// recordingTB keeps the errors a Server reports instead of failing the test.
type recordingTB struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (r *recordingTB) Errorf(format string, args ...any) {
	r.mu.Lock()
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
	r.mu.Unlock()
}

func post(t *testing.T, url, auth, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url+"/chat/completions", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func TestServer_PastTheScript(t *testing.T) {
	rec := &recordingTB{TB: t}
	s := NewServer(rec, Step{Content: "only answer"})
	for i, want := range []int{http.StatusOK, http.StatusInternalServerError} {
		if resp := post(t, s.URL, "Bearer k", `{"model":"m","messages":[]}`); resp.StatusCode != want {
			t.Errorf("request %d: status %d, want %d", i+1, resp.StatusCode, want)
		}
	}
	if len(rec.errs) != 1 || !strings.Contains(rec.errs[0], "request 2 is past the end of the script") {
		t.Errorf("reported errors = %q, want one for request 2", rec.errs)
	}
}

func TestServer_RequiresAuthorization(t *testing.T) {
	s := NewServer(t)
	if resp := post(t, s.URL, "", `{"model":"m","messages":[{"role":"user","content":"hi"}]}`); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("chat without a key: status %d, want 401", resp.StatusCode)
	}
	reqs := s.Requests()
	if len(reqs) != 1 || reqs[0].Messages[0].Content != "hi" || reqs[0].Header.Get("Authorization") != "" {
		t.Errorf("recorded requests = %+v, want the keyless one", reqs)
	}
	resp, err := http.Get(s.URL + "/models")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("models without a key: status %d, want 401", resp.StatusCode)
	}
}

// Close returns even while a handler waits on a channel nobody closes.
func TestServer_CloseReleasesWait(t *testing.T) {
	arrived := make(chan struct{})
	s := NewFuncServer(t, func(Request) Step {
		close(arrived)
		return Step{Wait: make(chan struct{})}
	})
	go func() {
		req, _ := http.NewRequest(http.MethodPost, s.URL+"/chat/completions", strings.NewReader(`{"model":"m","messages":[]}`))
		req.Header.Set("Authorization", "Bearer k")
		if resp, err := http.DefaultClient.Do(req); err == nil {
			_, _ = io.Copy(io.Discard, resp.Body) // the test is the server's, not this reader's
			resp.Body.Close()
		}
	}()
	<-arrived
	closed := make(chan struct{})
	go func() {
		s.Close()
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not return while a handler was waiting")
	}
}

func TestSplit(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want []string
	}{
		{"", 3, nil},
		{"abcdef", 0, []string{"abcdef"}},
		{"abcdef", 3, []string{"ab", "cd", "ef"}},
		{"abcdefg", 3, []string{"ab", "cd", "efg"}},
		{"ab", 5, []string{"a", "b"}},
		{"你好世界", 2, []string{"你好", "世界"}},
	}
	for _, tt := range tests {
		got := split(tt.s, tt.n)
		if fmt.Sprint(got) != fmt.Sprint(tt.want) || len(got) != len(tt.want) {
			t.Errorf("split(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
	}
}
