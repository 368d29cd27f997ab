package botload

import (
	"context"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"hermes/backend/cluster/clustertest"
)

// botProcess is a `hermes bot` running as a child of the benchmark.
type botProcess struct {
	cmd    *exec.Cmd
	out    *clustertest.Output
	errOut *clustertest.Output
	exited chan struct{} // closed once the process has exited and its output is read
	err    error         // of cmd.Wait, set before exited is closed
}

// callbackURL is in the line `hermes bot` prints once it takes callbacks.
var callbackURL = regexp.MustCompile(`taking callbacks at (http://127\.0\.0\.1:\d+/\S*)`)

// startBot runs `bin bot --home home` on a free loopback port with the
// extra environment variables env, and returns once it takes callbacks,
// with the callback's URL. It is killed when the benchmark ends, unless
// stop has stopped it already.
func startBot(b *testing.B, bin, home string, env map[string]string) (*botProcess, string) {
	b.Helper()
	cmd := exec.Command(bin, "bot", "--home", home, "--listen", "127.0.0.1:0")
	cmd.Env = childEnv(env)
	p := &botProcess{cmd: cmd, out: clustertest.NewOutput(), errOut: clustertest.NewOutput(), exited: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = p.out, p.errOut
	if err := cmd.Start(); err != nil {
		b.Fatalf("start %s: %v", bin, err)
	}
	go func() {
		p.err = cmd.Wait()
		close(p.exited)
	}()
	b.Cleanup(func() {
		select {
		case <-p.exited:
		default:
			cmd.Process.Kill()
			<-p.exited
		}
	})
	ctx, cancel := context.WithTimeout(b.Context(), time.Minute)
	defer cancel()
	line, err := p.out.Find(ctx, callbackURL, p.exited)
	if err != nil {
		b.Fatalf("%v\nstdout:\n%s\nstderr:\n%s", err, p.out, p.errOut)
	}
	return p, callbackURL.FindStringSubmatch(line)[1]
}

// childEnv is this process's environment with vars set, less the
// variables that would point the bot's model client elsewhere.
func childEnv(vars map[string]string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if _, set := vars[name]; !set && name != "OPENAI_BASE_URL" && name != "OPENAI_API_KEY" {
			env = append(env, kv)
		}
	}
	for k, v := range vars {
		env = append(env, k+"="+v)
	}
	return env
}

// stop presses Ctrl-C once, as a person stopping the bot does, and fails
// the benchmark unless the bot exits 0 within its grace period.
func (p *botProcess) stop(b *testing.B) {
	b.Helper()
	if err := p.cmd.Process.Signal(os.Interrupt); err != nil {
		b.Fatalf("interrupt hermes bot: %v", err)
	}
	// The bot gives running tasks 30 seconds to reach a safe point.
	timeout := time.NewTimer(time.Minute)
	defer timeout.Stop()
	select {
	case <-p.exited:
	case <-timeout.C:
		b.Fatalf("hermes bot did not exit within a minute of Ctrl-C:\n%s", p.errOut)
	}
	if p.err != nil {
		b.Fatalf("hermes bot exited with %v after Ctrl-C:\n%s", p.err, p.errOut)
	}
}
