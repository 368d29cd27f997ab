package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"hermes/backend/cli"
	"hermes/backend/event"
	"hermes/backend/runlog"
	"hermes/backend/server/servertest"
)

// lineWriter hands each complete line written to it to a channel, so a test
// can wait for the line that carries the URL instead of sleeping.
type lineWriter struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	all   strings.Builder
	lines chan string
}

func newLineWriter() *lineWriter { return &lineWriter{lines: make(chan string, 64)} }

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	w.all.Write(p)
	for {
		line, err := w.buf.ReadString('\n')
		if err != nil {
			w.buf.WriteString(line)
			return len(p), nil
		}
		w.lines <- strings.TrimRight(line, "\n")
	}
}

func (w *lineWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.all.String()
}

// waitFor waits for a line that holds want. It fails the test when the
// serve ends first, or says nothing of it for a minute: the serve waits on
// the held model meanwhile, so a line worded otherwise would be waited for
// until go test's own timeout.
func (w *lineWriter) waitFor(t *testing.T, want string, code <-chan int) {
	t.Helper()
	quiet := time.NewTimer(time.Minute)
	defer quiet.Stop()
	for {
		select {
		case line := <-w.lines:
			if strings.Contains(line, want) {
				return
			}
		case c := <-code:
			t.Fatalf("serve exited with %d before saying %q: %s", c, want, w)
		case <-quiet.C:
			t.Fatalf("serve did not say %q in a minute: %s", want, w)
		}
	}
}

var urlRE = regexp.MustCompile(`(http://127\.0\.0\.1:\d+/)\?token=([0-9a-f]{32})`)

// served is a running `hermes serve`: its base URL, the token its printed
// URL carries, and the channel of its exit code.
type served struct {
	url, token string
	code       <-chan int
}

// startServe runs `hermes serve` on a free loopback port.
func startServe(t *testing.T, ctx context.Context, env *cli.Env, home string) served {
	t.Helper()
	out := newLineWriter()
	env.Stdout = out
	code := make(chan int, 1)
	go func() { code <- cli.Main(ctx, env, []string{"serve", "--home", home, "--listen", "127.0.0.1:0"}) }()
	select {
	case line := <-out.lines:
		m := urlRE.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("no URL with a token in %q", line)
		}
		return served{url: m[1], token: m[2], code: code}
	case c := <-code:
		t.Fatalf("serve exited with %d before listening: %s", c, env.Stderr)
	}
	return served{}
}

// authed sends a request with the serve's token as a bearer token.
func (s served) authed(t *testing.T, method, path, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, s.url+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+s.token)
	if method != "GET" {
		req.Header.Set("Content-Type", "application/json") // the local API takes changes only as JSON
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func serveEnv(assets fstest.MapFS) *cli.Env {
	env := &cli.Env{Stderr: &bytes.Buffer{}, Getenv: func(string) string { return "" }}
	if assets != nil {
		env.Assets = assets
	}
	return env
}

func TestServe_ServesRunsAndUIUntilCancelled(t *testing.T) {
	home := t.TempDir()
	written, err := servertest.WriteSample(home, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	s := startServe(t, ctx, serveEnv(fstest.MapFS{"index.html": {Data: []byte("<title>Hermes UI</title>")}}), home)

	res, err := http.Get(s.url + "api/runs")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Fatalf("GET /api/runs without the token: %d", res.StatusCode)
	}
	res = s.authed(t, "GET", "api/runs", "")
	var runs []runlog.Summary
	err = json.NewDecoder(res.Body).Decode(&runs)
	res.Body.Close()
	// The home's runs, then the sample run.
	if err != nil || len(runs) != len(written)+1 || runs[0].RunID != written[0].RunID {
		t.Fatalf("GET /api/runs: %v, %d runs, want %d and the sample starting with %s", err, len(runs), len(written), written[0].RunID)
	}
	// The printed URL sets the cookie that the page then carries.
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	browser := &http.Client{Jar: jar}
	res, err = browser.Get(s.url + "?token=" + s.token)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(page), "Hermes UI") || res.Request.URL.RawQuery != "" {
		t.Fatalf("GET the printed URL = %q at %s", page, res.Request.URL)
	}

	cancel()
	if c := <-s.code; c != cli.ExitOK {
		t.Fatalf("exit code %d", c)
	}
	if _, err := http.Get(s.url + "api/runs"); err == nil {
		t.Fatal("server still answers after it stopped")
	}
}

// TestServe_StopsLiveRunsAtASafePoint: when serve stops, a live run stops
// at its next safe point and leaves a checkpoint that resumes.
func TestServe_StopsLiveRunsAtASafePoint(t *testing.T) {
	release := make(chan struct{})
	var holding atomic.Bool
	holding.Store(true)
	srv := writeSteps(t, 3, 0, release, &holding)
	home, ws := t.TempDir(), t.TempDir()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	stderr := newLineWriter()
	env := serveEnv(nil)
	env.Stderr = stderr
	env.Getenv = func(k string) string {
		return map[string]string{"OPENAI_API_KEY": testKey, "OPENAI_BASE_URL": srv.URL}[k]
	}
	s := startServe(t, ctx, env, home)

	res := s.authed(t, "POST", "api/runs", fmt.Sprintf(`{"task":"write three files","workspace":%q}`, ws))
	var started struct {
		RunID string `json:"run_id"`
	}
	err := json.NewDecoder(res.Body).Decode(&started)
	res.Body.Close()
	if res.StatusCode != http.StatusCreated || err != nil {
		t.Fatalf("POST /api/runs: %d %v", res.StatusCode, err)
	}
	cancel()
	stderr.waitFor(t, "stopping 1 live run at its next safe point", s.code)
	holding.Store(false)
	close(release) // the model answers; the decision is the safe point
	if c := <-s.code; c != cli.ExitOK {
		t.Fatalf("exit code %d; stderr %s", c, stderr)
	}
	runs, err := runlog.List(home)
	if err != nil || len(runs) != 1 || runs[0].Status != event.StatusStopped {
		t.Fatalf("runs = %+v, %v; want one stopped run", runs, err)
	}
	out := runHermes(t, "resume", "--home", home, "--base-url", srv.URL, started.RunID)
	if out.code != cli.ExitOK {
		t.Fatalf("resume: exit %d\n%s", out.code, out.stderr)
	}
}

func TestServe_StopsOnInterrupt(t *testing.T) {
	interrupts := make(chan os.Signal, 1)
	env := serveEnv(nil)
	env.Interrupts = interrupts
	s := startServe(t, t.Context(), env, t.TempDir())
	if !strings.Contains(env.Stderr.(*bytes.Buffer).String(), "-tags ui") {
		t.Errorf("no note about the missing UI: %q", env.Stderr)
	}
	interrupts <- os.Interrupt
	if c := <-s.code; c != cli.ExitOK {
		t.Fatalf("exit code %d", c)
	}
}

func TestServe_Refusals(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"a stray argument", []string{"serve", "now"}, cli.ExitUsage, `"now"`},
		{"an unknown flag", []string{"serve", "--port", "1"}, cli.ExitUsage, "-port"},
		{"an address in use", []string{"serve", "--listen", busy.Addr().String()}, cli.ExitFailed, "--listen 127.0.0.1:7788"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			env := &cli.Env{Stdout: io.Discard, Stderr: &stderr, Getenv: func(string) string { return "" }}
			args := slices.Concat(tt.args, []string{"--home", t.TempDir()})
			if c := cli.Main(t.Context(), env, args); c != tt.code {
				t.Fatalf("exit code %d, want %d; stderr %q", c, tt.code, stderr.String())
			}
			if !strings.Contains(stderr.String(), tt.stderr) {
				t.Errorf("stderr %q lacks %q", stderr.String(), tt.stderr)
			}
		})
	}
}
