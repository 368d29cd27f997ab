package clustertest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"hermes/backend/wecom/wecomtest"
)

// BuildHermes builds the hermes binary of this tree (headless) into a
// temporary folder and returns its path; HERMES_BIN names one built
// already instead.
func BuildHermes(tb testing.TB) string {
	tb.Helper()
	if bin := os.Getenv("HERMES_BIN"); bin != "" {
		return bin
	}
	const goTool = "go" // go test puts the bin folder of its own Go first in PATH
	gomod, err := exec.Command(goTool, "env", "GOMOD").Output()
	if err != nil || len(bytes.TrimSpace(gomod)) == 0 {
		tb.Fatalf("clustertest: no Go module to build hermes from: %v", err)
	}
	bin := filepath.Join(tb.TempDir(), "hermes")
	cmd := exec.Command(goTool, "build", "-tags", "headless", "-o", bin, ".")
	cmd.Dir = filepath.Dir(string(bytes.TrimSpace(gomod)))
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("clustertest: go build hermes: %v\n%s", err, out)
	}
	return bin
}

// ProcConfig is what every `hermes bot` replica process is given.
type ProcConfig struct {
	Bin     string // the hermes binary
	NATSURL string
	Model   string // the scripted model's URL
	WeCom   *wecomtest.Server
	// RateLimit is each replica's [bot] rate_limit; AckWait [cluster] ack_wait.
	RateLimit int
	AckWait   time.Duration
	// Memory is [context] memory ("" leaves the default, "on").
	Memory string
}

// The environment variables that hold the secrets of a replica process.
const (
	envModelKey = "HERMES_CLUSTERTEST_MODEL_KEY"
	envSecret   = "HERMES_CLUSTERTEST_WECOM_SECRET"
)

// WriteHome writes hermes.toml of a replica's home: the same [model],
// [bot] and [cluster] for every replica, the secrets read from its
// environment.
func (c ProcConfig) WriteHome(tb testing.TB, home string) {
	tb.Helper()
	cfg := fmt.Sprintf(`[model]
base_url = %q
model = "test-model"
api_key_env = %q

[bot]
platform = "wecom"
webhook_secret = %q
encoding_aes_key = %q
corp_id = %q
secret_env = %q
agent_id = %d
api_base = %q
rate_limit = %d
user_rate_limit = 1000

[cluster]
nats_url = %q
ack_wait = %q
`, c.Model, envModelKey, Token, AESKey, CorpID, envSecret, AgentID, c.WeCom.URL, c.RateLimit, c.NATSURL, c.AckWait.String())
	if c.Memory != "" {
		cfg += fmt.Sprintf("\n[context]\nmemory = %q\n", c.Memory)
	}
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte(cfg), 0o600); err != nil {
		tb.Fatal(err)
	}
}

// Proc is one `hermes bot` replica as a process of its own. Start it
// again after Kill or Stop and it comes back with the same home on the
// same address.
type Proc struct {
	Name string
	Home string
	URL  string // the callback's
	CB   *wecomtest.Callbacks

	tb     testing.TB
	cfg    ProcConfig
	listen string

	mu     sync.Mutex
	cmd    *exec.Cmd
	out    *Output
	errOut *Output
	exited chan struct{}
	err    error
	logs   []string // stderr of the processes before this one
}

// StartProc starts a replica process in a home of its own; it is killed
// when the test ends, if it still runs.
func (c ProcConfig) StartProc(tb testing.TB, name string) *Proc {
	tb.Helper()
	p := &Proc{Name: name, Home: tb.TempDir(), tb: tb, cfg: c, listen: "127.0.0.1:0"}
	c.WriteHome(tb, p.Home)
	p.Start()
	tb.Cleanup(func() {
		if p.Running() {
			p.Kill()
		}
	})
	return p
}

// listening is the line `hermes bot` prints once it takes callbacks.
var listening = regexp.MustCompile(`taking callbacks at (http://(127\.0\.0\.1:\d+)/\S*)`)

// Start runs the replica (again) and returns once it takes callbacks.
func (p *Proc) Start() {
	p.tb.Helper()
	cmd := exec.Command(p.cfg.Bin, "bot", "--home", p.Home, "--listen", p.listen)
	cmd.Env = procEnv()
	out, errOut, exited := NewOutput(), NewOutput(), make(chan struct{})
	cmd.Stdout, cmd.Stderr = out, errOut
	if err := cmd.Start(); err != nil {
		p.tb.Fatalf("%s: start hermes bot: %v", p.Name, err)
	}
	p.mu.Lock()
	p.cmd, p.out, p.errOut, p.exited = cmd, out, errOut, exited
	p.mu.Unlock()
	go func() {
		err := cmd.Wait()
		p.mu.Lock()
		p.err = err
		p.mu.Unlock()
		close(exited)
	}()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	line, err := out.Find(ctx, listening, exited)
	if err != nil {
		p.tb.Fatalf("%s: %v\nstdout:\n%s\nstderr:\n%s", p.Name, err, out, errOut)
	}
	m := listening.FindStringSubmatch(line)
	cb, err := wecomtest.NewCallbacks(m[1], Token, AESKey, CorpID)
	if err != nil {
		p.tb.Fatal(err)
	}
	p.mu.Lock()
	p.URL, p.listen, p.CB = m[1], m[2], cb
	p.mu.Unlock()
}

// procEnv is this process's environment with the replica's secrets, less
// what would point it elsewhere.
func procEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, "HERMES_") && !strings.HasPrefix(name, "OPENAI_") {
			env = append(env, kv)
		}
	}
	return append(env, envModelKey+"="+ModelKey, envSecret+"="+Secret, "HERMES_LANG=en")
}

// PID is the running process's id.
func (p *Proc) PID() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cmd.Process.Pid
}

// Running reports whether the process has not exited.
func (p *Proc) Running() bool {
	p.mu.Lock()
	exited := p.exited
	p.mu.Unlock()
	select {
	case <-exited:
		return false
	default:
		return true
	}
}

// Kill sends SIGKILL and returns once the process is gone: it says
// nothing to NATS or to anyone.
func (p *Proc) Kill() {
	p.mu.Lock()
	cmd, exited := p.cmd, p.exited
	p.mu.Unlock()
	_ = cmd.Process.Signal(syscall.SIGKILL) // one that has exited is as good
	<-exited
	p.keepLogs()
}

// Stop presses Ctrl-C, as an operator stopping the replica does, and fails
// the test unless it exits 0 within a minute.
func (p *Proc) Stop() {
	p.tb.Helper()
	p.mu.Lock()
	cmd, exited := p.cmd, p.exited
	p.mu.Unlock()
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		p.tb.Errorf("%s: interrupt: %v", p.Name, err)
	}
	select {
	case <-exited:
	case <-time.After(time.Minute):
		_ = cmd.Process.Kill()
		<-exited
		p.tb.Errorf("%s did not exit within a minute of Ctrl-C", p.Name)
	}
	p.mu.Lock()
	err := p.err
	p.mu.Unlock()
	if err != nil {
		p.tb.Errorf("%s exited with %v after Ctrl-C:\n%s", p.Name, err, p.errOut)
	}
	p.keepLogs()
}

func (p *Proc) keepLogs() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.logs = append(p.logs, p.errOut.String())
}

// CheckLogs fails the test if a secret reached what any of the replica's
// processes logged.
func (p *Proc) CheckLogs() {
	p.tb.Helper()
	p.mu.Lock()
	logs := strings.Join(append(p.logs, p.errOut.String(), p.out.String()), "\n")
	p.mu.Unlock()
	for _, s := range []string{ModelKey, Secret, Token, AESKey, "wecomtest-token-"} {
		if strings.Contains(logs, s) {
			p.tb.Errorf("%s's log holds a secret (%.6s…)", p.Name, s)
		}
	}
}

// Output collects what a process prints, and wakes waiters on each write.
type Output struct {
	mu      sync.Mutex
	b       bytes.Buffer
	changed chan struct{} // closed and replaced on every write
}

// NewOutput is an empty Output.
func NewOutput() *Output { return &Output{changed: make(chan struct{})} }

func (o *Output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.b.Write(p)
	close(o.changed)
	o.changed = make(chan struct{})
	return len(p), nil
}

func (o *Output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.b.String()
}

// Find waits until re matches the output and returns the match, or fails
// when the process exits (exited is closed) or ctx is done first.
func (o *Output) Find(ctx context.Context, re *regexp.Regexp, exited <-chan struct{}) (string, error) {
	for {
		o.mu.Lock()
		match, changed := re.FindString(o.b.String()), o.changed
		o.mu.Unlock()
		if match != "" {
			return match, nil
		}
		select {
		case <-changed:
		case <-exited:
			return "", fmt.Errorf("hermes bot exited before printing %q", re)
		case <-ctx.Done():
			return "", fmt.Errorf("waiting for %q: %w", re, ctx.Err())
		}
	}
}
