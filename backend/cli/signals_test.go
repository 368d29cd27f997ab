package cli_test

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"hermes/backend/cli"
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
)

// busyProcess is hermes stuck in a long step that takes no signal
// (clitest's HERMES_TEST_BUSY), with its stderr read line by line.
type busyProcess struct {
	cmd   *exec.Cmd
	lines chan string
	said  strings.Builder
}

func startBusy(t *testing.T, env ...string) *busyProcess {
	t.Helper()
	cmd := hermes(t, "version")
	cmd.Env = append(cmd.Env, append([]string{"HERMES_TEST_BUSY=1"}, env...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || line != "busy\n" {
		t.Fatalf("the process said %q, %v", line, err)
	}
	go func() { _, _ = io.Copy(io.Discard, stdout) }() // what it says next is not read
	p := &busyProcess{cmd: cmd, lines: make(chan string, 16)}
	go func() {
		defer close(p.lines)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
	}()
	return p
}

func (p *busyProcess) signal(t *testing.T, s os.Signal) {
	t.Helper()
	if err := p.cmd.Process.Signal(s); err != nil {
		t.Fatal(err)
	}
}

// waitFor waits for a line of stderr that holds want, and returns it.
func (p *busyProcess) waitFor(t *testing.T, want string) string {
	t.Helper()
	for line := range p.lines {
		p.said.WriteString(line + "\n")
		if strings.Contains(line, want) {
			return line
		}
	}
	t.Fatalf("the process ended without saying %q: %s", want, p.said.String())
	return ""
}

// exited waits for the process to end and checks it exited at once as
// ExitStopped, saying why with want.
func (p *busyProcess) exited(t *testing.T, want string) {
	t.Helper()
	line := p.waitFor(t, want)
	if !strings.Contains(line, "hermes resume RUN_ID") {
		t.Errorf("the line does not say how to go on: %s", line)
	}
	for range p.lines {
	}
	_ = p.cmd.Wait()
	if code := p.cmd.ProcessState.ExitCode(); code != cli.ExitStopped {
		t.Fatalf("exit %d, want %d", code, cli.ExitStopped)
	}
}

// TestSignals_EndABusyProcess: a process busy in a step that takes no
// signal still ends: at a second SIGTERM, at Ctrl-C after SIGTERM, at a
// second Ctrl-C while the first was not taken, and when the grace after
// SIGTERM runs out. Each waits for what the process says before the next
// signal, so that no two arrive together.
func TestSignals_EndABusyProcess(t *testing.T) {
	t.Run("SIGTERM twice", func(t *testing.T) {
		p := startBusy(t)
		p.signal(t, syscall.SIGTERM)
		p.waitFor(t, "stopping on SIGTERM; Hermes exits at once if not stopped 45s after it")
		p.signal(t, syscall.SIGTERM)
		p.exited(t, "SIGTERM again: exiting at once")
	})
	t.Run("Ctrl-C after SIGTERM", func(t *testing.T) {
		p := startBusy(t)
		p.signal(t, syscall.SIGTERM)
		p.waitFor(t, "stopping on SIGTERM")
		p.signal(t, syscall.SIGINT)
		p.exited(t, "Ctrl-C after SIGTERM: exiting at once")
	})
	t.Run("Ctrl-C twice", func(t *testing.T) {
		p := startBusy(t)
		p.signal(t, syscall.SIGINT)
		p.waitFor(t, "Hermes is busy and has not yet taken Ctrl-C; press Ctrl-C again to exit at once")
		p.signal(t, syscall.SIGINT)
		p.exited(t, "Ctrl-C again while Hermes was busy")
	})
	t.Run("the grace runs out", func(t *testing.T) {
		p := startBusy(t, "HERMES_TEST_HARD_STOP=300ms")
		start := time.Now()
		p.signal(t, syscall.SIGTERM)
		p.exited(t, "not stopped 300ms after the signal to stop: exiting at once")
		if took := time.Since(start); took < 300*time.Millisecond {
			t.Fatalf("exited %v after SIGTERM, before the grace ran out", took)
		}
	})
}

// TestRun_SIGTERMStopsTheRunsOthersStartedHere: a `hermes run` that owns
// the home keeps it, once its own run is over, for the runs other
// processes started in it; SIGTERM stops those at their next safe point
// and the process exits, as Ctrl-C does, rather than waiting on until the
// grace runs out.
func TestRun_SIGTERMStopsTheRunsOthersStartedHere(t *testing.T) {
	mine, theirs := make(chan struct{}), make(chan struct{})
	theirsAsked := make(chan struct{}, 1)
	srv := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		for _, m := range req.Messages {
			if m.Role == llm.RoleUser && strings.Contains(m.Content, "theirs") {
				theirsAsked <- struct{}{}
				return llmtest.Step{Content: "done", Wait: theirs}
			}
		}
		return llmtest.Step{Content: "done", Wait: mine}
	})
	ws := t.TempDir()
	home := modelHome(t, srv.URL, ws)
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), fmt.Appendf(nil, "[model]\nbase_url = %q\nmax_retries = 0\n\n[agent]\nstrategy = \"react\"\nroute = false\nworkspace = %q\n", srv.URL, ws), 0o600); err != nil {
		t.Fatal(err)
	}
	run := hermes(t, "run", "--json", "--home", home, "mine")
	run.Env = append(run.Env, "HERMES_TEST_HARD_STOP=20s")
	stdout, err := run.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := run.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
	events := eventStream(t, stdout)
	for e := range events {
		if e.Type == event.RunStarted {
			break
		}
	}

	other := startServeProcess(t, home)
	defer other.stop(t)
	res := other.authed(t, "POST", "api/runs", `{"task":"theirs"}`)
	res.Body.Close()
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("start through the attached serve: %d", res.StatusCode)
	}
	<-theirsAsked
	close(mine)
	lines := bufio.NewScanner(stderr)
	var said strings.Builder
	wait := func(want string) {
		t.Helper()
		for lines.Scan() {
			said.WriteString(lines.Text() + "\n")
			if strings.Contains(lines.Text(), want) {
				return
			}
		}
		t.Fatalf("hermes run ended without saying %q:\n%s", want, said.String())
	}
	wait("1 run started here by another Hermes process goes on")
	run.Process.Signal(syscall.SIGTERM)
	wait("stopping 1 live run at its next safe point")
	close(theirs)
	for range events {
	}
	for lines.Scan() {
		said.WriteString(lines.Text() + "\n")
	}
	_ = run.Wait()
	if code := run.ProcessState.ExitCode(); code != cli.ExitOK || strings.Contains(said.String(), "exiting at once") {
		t.Fatalf("exit %d:\n%s", code, said.String())
	}
}
