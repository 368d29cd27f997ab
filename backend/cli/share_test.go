package cli_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"hermes/backend/cli"
	"hermes/backend/event"
	"hermes/backend/homelock"
	"hermes/backend/runlog"
)

// process is hermes running as a process of its own.
type process struct {
	cmd *exec.Cmd
	// said is what it printed before the line it was waited for.
	said   []string
	stderr *strings.Builder
}

// startProcess starts cmd and waits for the first line of its output that
// want matches, which it returns with its groups.
func startProcess(t *testing.T, cmd *exec.Cmd, want *regexp.Regexp) (*process, []string) {
	t.Helper()
	p := &process{cmd: cmd, stderr: &strings.Builder{}}
	cmd.Stderr = p.stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if m := want.FindStringSubmatch(sc.Text()); m != nil {
			go func() {
				for sc.Scan() {
				}
			}()
			return p, m
		}
		p.said = append(p.said, sc.Text())
	}
	cmd.Wait()
	t.Fatalf("hermes %s printed nothing like %s: %s\n%s", cmd.Args[1], want, strings.Join(p.said, "\n"), p.stderr)
	return nil, nil
}

// stop presses Ctrl-C and returns the exit code.
func (p *process) stop(t *testing.T) int {
	t.Helper()
	p.cmd.Process.Signal(syscall.SIGINT)
	p.cmd.Wait()
	return p.cmd.ProcessState.ExitCode()
}

// serveProcess is `hermes serve` running as a process of its own.
type serveProcess struct {
	served
	*process
}

// startServeProcess runs `hermes serve` on a free loopback port of home
// and waits for the URL it prints.
func startServeProcess(t *testing.T, home string) *serveProcess {
	t.Helper()
	p, m := startProcess(t, hermes(t, "serve", "--home", home, "--listen", "127.0.0.1:0"), urlRE)
	return &serveProcess{served: served{url: m[1], token: m[2]}, process: p}
}

// modelHome is a home whose hermes.toml points at the model at url and
// works in ws.
func modelHome(t *testing.T, url, ws string) string {
	t.Helper()
	home := t.TempDir()
	toml := fmt.Sprintf("[model]\nbase_url = %q\nmax_retries = 0\n\n[agent]\nworkspace = %q\n", url, ws)
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	return home
}

// sse reads a run's event stream from a serve until `end`.
func sse(t *testing.T, s served, id string) <-chan event.Event {
	t.Helper()
	res := s.authed(t, "GET", "api/runs/"+id+"/stream", "")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("stream: %d", res.StatusCode)
	}
	c := make(chan event.Event, 256)
	go func() {
		defer close(c)
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			line := sc.Text()
			if line == "event: end" {
				return
			}
			var e event.Event
			if data, ok := strings.CutPrefix(line, "data: "); ok && json.Unmarshal([]byte(data), &e) == nil {
				c <- e
			}
		}
	}()
	return c
}

// stopThrough stops run id through s, lets the model answer with release,
// and fails unless the run's stream then ends with the run stopped.
func stopThrough(t *testing.T, s served, id string, events <-chan event.Event, release func()) {
	t.Helper()
	res := s.authed(t, "POST", "api/runs/"+id+"/control", `{"kind":"stop"}`)
	res.Body.Close()
	if res.StatusCode != http.StatusAccepted {
		t.Fatalf("stop through %s: %d", s.url, res.StatusCode)
	}
	release()
	var last event.Event
	for e := range events {
		last = e
	}
	if d, _ := event.Decode[event.RunFinishedData](last); last.Type != event.RunFinished || d.Status != event.StatusStopped {
		t.Fatalf("the stream through %s ended with %s %s", s.url, last.Type, last.Data)
	}
}

func runStatus(t *testing.T, home, id string) string {
	t.Helper()
	path, err := runlog.Find(home, id)
	if err != nil {
		t.Fatal(err)
	}
	events, err := runlog.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return runlog.Summarize(events).Status
}

func TestShare_SecondProcessAttachesSeesAndStopsTheLiveRun(t *testing.T) {
	hold := make(chan struct{})
	var holding atomic.Bool
	holding.Store(true)
	ws := t.TempDir()
	home := modelHome(t, writeSteps(t, 3, 0, hold, &holding).URL, ws)

	first := startServeProcess(t, home)
	lock, err := homelock.ReadLock(home)
	if err != nil || lock.PID != first.cmd.Process.Pid || lock.Mode != "serve" {
		t.Fatalf("the first process's lock: %+v, %v", lock, err)
	}
	res := first.authed(t, "POST", "api/runs", `{"task":"write three files"}`)
	var ref struct {
		RunID string `json:"run_id"`
	}
	decodeErr := json.NewDecoder(res.Body).Decode(&ref)
	res.Body.Close()
	if decodeErr != nil {
		t.Fatal(decodeErr)
	}
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("start in the first: %d", res.StatusCode)
	}

	second := startServeProcess(t, home)
	if said := strings.Join(second.said, "\n"); !strings.Contains(said, fmt.Sprintf("attached to hermes serve (pid %d)", lock.PID)) {
		t.Errorf("the second does not say it attached: %q", said)
	}
	res = second.authed(t, "GET", "api/runs", "")
	var runs []struct {
		RunID string `json:"run_id"`
		Live  bool   `json:"live"`
	}
	decodeErr = json.NewDecoder(res.Body).Decode(&runs)
	res.Body.Close()
	if decodeErr != nil {
		t.Fatal(decodeErr)
	}
	if len(runs) == 0 || runs[0].RunID != ref.RunID || !runs[0].Live {
		t.Fatalf("the second lists %+v, want %s live first", runs, ref.RunID)
	}
	events := sse(t, second.served, ref.RunID)
	if e := <-events; e.Type != event.RunStarted {
		t.Fatalf("the second streams %s first", e.Type)
	}
	// The model holds the run's first request until the stop is queued.
	stopThrough(t, second.served, ref.RunID, events, func() {
		holding.Store(false)
		close(hold)
	})
	if got := runStatus(t, home, ref.RunID); got != event.StatusStopped {
		t.Errorf("the first logged the run as %q", got)
	}
	if _, err := os.Stat(filepath.Join(ws, "step0.txt")); err == nil {
		t.Error("the call decided before the stop ran")
	}

	if code := second.stop(t); code != cli.ExitOK {
		t.Errorf("the second exited %d", code)
	}
	if l, err := homelock.ReadLock(home); err != nil || l != lock {
		t.Errorf("the second touched the lock: %+v, %v", l, err)
	}
	if code := first.stop(t); code != cli.ExitOK {
		t.Errorf("the first exited %d", code)
	}
	if _, err := os.Stat(homelock.LockPath(home)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the owner left its lock: %v", err)
	}
}

func TestRun_GoesOnInTheOwnerAndCtrlCStopsIt(t *testing.T) {
	hold := make(chan struct{})
	var holding atomic.Bool
	holding.Store(true)
	ws := t.TempDir()
	srv := writeSteps(t, 3, 1, hold, &holding)
	home := modelHome(t, srv.URL, ws)
	owner := startServeProcess(t, home)
	defer owner.stop(t)

	cmd := hermes(t, "run", "--yes", "--json", "--home", home, "--workspace", ws, "write three files")
	runID, stderr := interruptAt(t, cmd, 2, "Ctrl-C again", func() {
		holding.Store(false)
		close(hold)
	})
	if !strings.Contains(stderr, "attached to hermes serve") {
		t.Errorf("run does not say it went on in the owner: %s", stderr)
	}
	// --yes answered the first call's approval through the owner's API; the
	// second call was decided before the stop and never ran.
	if _, err := os.Stat(filepath.Join(ws, "step0.txt")); err != nil {
		t.Errorf("the approved call did not run: %v", err)
	}
	if _, err := os.Stat(filepath.Join(ws, "step1.txt")); err == nil {
		t.Error("a call decided before the stop still ran")
	}
	if got := runStatus(t, home, runID); got != event.StatusStopped {
		t.Errorf("the owner logged the run as %q", got)
	}
}
