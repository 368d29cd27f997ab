package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"hermes/backend/cli"
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

var urlRE = regexp.MustCompile(`http://127\.0\.0\.1:\d+/`)

// startServe runs `hermes serve` on a free loopback port and returns its URL
// and the channel of its exit code.
func startServe(t *testing.T, ctx context.Context, env *cli.Env, home string) (string, <-chan int) {
	t.Helper()
	out := newLineWriter()
	env.Stdout = out
	code := make(chan int, 1)
	go func() { code <- cli.Main(ctx, env, []string{"serve", "--home", home, "--listen", "127.0.0.1:0"}) }()
	select {
	case line := <-out.lines:
		u := urlRE.FindString(line)
		if u == "" {
			t.Fatalf("no URL in %q", line)
		}
		return u, code
	case c := <-code:
		t.Fatalf("serve exited with %d before listening: %s", c, env.Stderr)
	}
	return "", nil
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
	url, code := startServe(t, ctx, serveEnv(fstest.MapFS{"index.html": {Data: []byte("<title>Hermes UI</title>")}}), home)

	res, err := http.Get(url + "api/runs")
	if err != nil {
		t.Fatal(err)
	}
	var runs []runlog.Summary
	err = json.NewDecoder(res.Body).Decode(&runs)
	res.Body.Close()
	if err != nil || len(runs) != len(written) || runs[0].RunID != written[0].RunID {
		t.Fatalf("GET /api/runs: %v, %d runs, want %d starting with %s", err, len(runs), len(written), written[0].RunID)
	}
	res, err = http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(page), "Hermes UI") {
		t.Fatalf("GET / = %q", page)
	}

	cancel()
	if c := <-code; c != cli.ExitOK {
		t.Fatalf("exit code %d", c)
	}
	if _, err := http.Get(url + "api/runs"); err == nil {
		t.Fatal("server still answers after it stopped")
	}
}

func TestServe_StopsOnInterrupt(t *testing.T) {
	interrupts := make(chan os.Signal, 1)
	env := serveEnv(nil)
	env.Interrupts = interrupts
	_, code := startServe(t, t.Context(), env, t.TempDir())
	if !strings.Contains(env.Stderr.(*bytes.Buffer).String(), "-tags ui") {
		t.Errorf("no note about the missing UI: %q", env.Stderr)
	}
	interrupts <- os.Interrupt
	if c := <-code; c != cli.ExitOK {
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
			args := append(tt.args, "--home", t.TempDir())
			if c := cli.Main(t.Context(), env, args); c != tt.code {
				t.Fatalf("exit code %d, want %d; stderr %q", c, tt.code, stderr.String())
			}
			if !strings.Contains(stderr.String(), tt.stderr) {
				t.Errorf("stderr %q lacks %q", stderr.String(), tt.stderr)
			}
		})
	}
}
