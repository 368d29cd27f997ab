package cli_test

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"hermes/backend/cli"
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
	go io.Copy(io.Discard, stdout)
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
