package cli_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"testing"

	"hermes/backend/cli"
	"hermes/backend/cli/clitest"
	"hermes/backend/event"
)

// The tests run hermes as a real process: the test binary re-executes
// itself with HERMES_TEST_MAIN set and becomes `hermes` with the given
// arguments, with the same signal handling as main.go.
func TestMain(m *testing.M) {
	// A Go program for the sandbox's tests to run as a command: it dials
	// the address every way Go can and says whether any got through.
	if addr := os.Getenv("HERMES_TEST_DIAL"); addr != "" {
		os.Exit(dialEveryWay(addr))
	}
	clitest.Main(m)
}

// dialEveryWay tries TCP, Multipath TCP (which Landlock does not see) and
// UDP to addr, prints what each did, and returns 1 when one connected.
func dialEveryWay(addr string) int {
	code := 0
	var mptcp net.Dialer
	mptcp.SetMultipathTCP(true)
	for name, dial := range map[string]func() (net.Conn, error){
		"tcp":   func() (net.Conn, error) { return net.Dial("tcp", addr) },
		"mptcp": func() (net.Conn, error) { return mptcp.Dial("tcp", addr) },
		"udp": func() (net.Conn, error) {
			c, err := net.Dial("udp", addr)
			if err == nil {
				_, err = c.Write([]byte("x"))
			}
			return c, err
		},
	} {
		c, err := dial()
		if err != nil {
			fmt.Printf("go %s: %v\n", name, err)
			continue
		}
		c.Close()
		fmt.Printf("go %s: connected\n", name)
		code = 1
	}
	return code
}

const testKey = "sk-test-2b7e151628aed2a6abf7158809cf4f3c"

// hermes returns the command `hermes args...` on a fresh environment: the
// test key, English, no colour. The key follows the endpoint, never a run's
// base_url, so the endpoint that --base-url names is the configured one too
// (OPENAI_BASE_URL), as a user whose key is for it would set it.
func hermes(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), exe, args...)
	cmd.Env = []string{
		"HERMES_TEST_MAIN=1", "HERMES_LANG=en", "NO_COLOR=1",
		"OPENAI_API_KEY=" + testKey, "HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH"),
	}
	if i := slices.Index(args, "--base-url"); i >= 0 && i+1 < len(args) {
		cmd.Env = append(cmd.Env, "OPENAI_BASE_URL="+args[i+1])
	}
	return cmd
}

type outcome struct {
	code           int
	stdout, stderr string
}

func runHermes(t *testing.T, args ...string) outcome {
	t.Helper()
	cmd := hermes(t, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if exit, ok := err.(*exec.ExitError); ok {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return outcome{code, out.String(), errOut.String()}
}

// eventStream decodes a `--json` stdout into events as they arrive.
func eventStream(t *testing.T, r io.Reader) <-chan event.Event {
	t.Helper()
	c := make(chan event.Event, 256)
	go func() {
		defer close(c)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			var e event.Event
			if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
				t.Errorf("stdout line is not an event: %q", sc.Text())
				return
			}
			c <- e
		}
	}()
	return c
}

// interruptAt starts cmd (a `hermes run --json`), presses Ctrl-C once when
// the context of iteration n is built, and calls release once hermes has
// said (in a stderr line containing saying) that it took the interrupt, so
// the stop is queued before the held model answer arrives. It returns the
// run's id and stderr once the process has exited with ExitStopped.
func interruptAt(t *testing.T, cmd *exec.Cmd, n int, saying string, release func()) (runID, stderr string) {
	t.Helper()
	runID, stderr = ctrlCAt(t, cmd, n, saying, release)
	if code := cmd.ProcessState.ExitCode(); code != cli.ExitStopped {
		t.Fatalf("exit %d, want %d; stderr %s", code, cli.ExitStopped, stderr)
	}
	return runID, stderr
}

// ctrlCAt starts cmd (a `hermes run --json`), presses Ctrl-C once when the
// context of iteration n is built, and calls then once hermes has said (in
// a stderr line containing saying) that it took the interrupt. It returns
// the run's id and stderr once the process has exited.
func ctrlCAt(t *testing.T, cmd *exec.Cmd, n int, saying string, then func()) (runID, stderr string) {
	t.Helper()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var said strings.Builder
	took := make(chan struct{})
	stderrDone := make(chan struct{})
	go func() {
		defer close(stderrDone)
		sc := bufio.NewScanner(errPipe)
		once := false
		for sc.Scan() {
			said.WriteString(sc.Text() + "\n")
			if !once && strings.Contains(sc.Text(), saying) {
				once = true
				close(took)
			}
		}
	}()
	for e := range eventStream(t, stdout) {
		runID = e.RunID
		if e.Type == event.ContextBuilt && e.Iteration == n {
			cmd.Process.Signal(syscall.SIGINT)
			<-took
			then()
		}
	}
	<-stderrDone
	cmd.Wait()
	return runID, said.String()
}
