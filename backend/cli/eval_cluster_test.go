package cli_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"hermes/backend/cli"
	"hermes/backend/cluster/clustertest"
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runlog"
)

// TestEval_ClusterWorkerKilledLosesNoRun: hermes eval run --cluster puts
// six runs on the NATS queue; a worker killed with SIGKILL in the middle of
// its run loses it to another worker, and every run has one result, from
// one run that finished.
func TestEval_ClusterWorkerKilledLosesNoRun(t *testing.T) {
	nats := clustertest.Start(t)
	hold := make(chan struct{})
	held := make(chan struct{}, 1)
	var once sync.Once
	srv := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		results := 0
		for _, m := range req.Messages {
			if m.Role == llm.RoleTool {
				results++
			}
		}
		if results == 0 {
			step := llmtest.Step{Content: "Writing.", ToolCalls: []llm.ToolCall{{ID: "w1", Name: "write_file", Arguments: `{"path":"OUT.txt","content":"ok"}`}}}
			if strings.Contains(req.Header.Get("Authorization"), "sk-worker-0") {
				once.Do(func() { step.Wait = hold; held <- struct{}{} })
			}
			return step
		}
		return llmtest.Step{Content: "Done."}
	})
	cfg := fmt.Sprintf("[model]\nbase_url = %q\nmax_retries = 0\n\n[agent]\nstrategy = \"react\"\nroute = false\n\n[cluster]\nnats_url = %q\nack_wait = \"1s\"\n", srv.URL, nats.URL)
	newHome := func() string {
		h := t.TempDir()
		if err := os.WriteFile(filepath.Join(h, "hermes.toml"), []byte(cfg), 0o600); err != nil {
			t.Fatal(err)
		}
		return h
	}
	worker := func(i int) (*exec.Cmd, string) {
		home := newHome()
		cmd := hermes(t, "worker", "--home", home, "--parallel", "1")
		cmd.Env = append(cmd.Env, fmt.Sprintf("OPENAI_API_KEY=sk-worker-%d-0000000000000000", i))
		errPipe, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		ready := make(chan struct{})
		go func() {
			sc := bufio.NewScanner(errPipe)
			for sc.Scan() {
				t.Logf("worker %d: %s", i, sc.Text())
				if strings.Contains(sc.Text(), "taking eval runs") {
					close(ready)
				}
			}
		}()
		<-ready
		return cmd, home
	}
	dir := t.TempDir()
	// Two tasks, each with a fixture of its own, which a worker is sent
	// with the task's runs only.
	for _, f := range []string{"a/IN.txt", "b/IN.txt"} {
		p := filepath.Join(dir, "fixtures", filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	task := func(id string) string {
		return fmt.Sprintf("[[task]]\nid = %q\ntask = \"write OUT.txt\"\nworkspace = \"fixtures/%s\"\n  [[task.check]]\n  file = \"OUT.txt\"\n  equals = \"ok\"\n  [[task.check]]\n  file = \"IN.txt\"\n  equals = \"%s/IN.txt\"\n", id, id, id)
	}
	suite := writeSuite(t, dir, "c.toml", "name = \"c\"\n"+task("a")+task("b"))

	w0, home0 := worker(0)
	coord := hermes(t, "eval", "run", "--cluster", "--home", newHome(), "--repeat", "3", "--json", suite)
	var out strings.Builder
	var errOut strings.Builder
	coord.Stdout, coord.Stderr = &out, &errOut
	if err := coord.Start(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-held:
	case <-time.After(30 * time.Second): // a failure, never the path of a passing test
		coord.Process.Kill()
		coord.Wait()
		t.Fatalf("no run held: %s\n%s", out.String(), errOut.String())
	}
	w1, home1 := worker(1)
	w2, home2 := worker(2)
	w0.Process.Signal(syscall.SIGKILL)
	w0.Wait()
	close(hold)
	coord.Wait()
	for _, w := range []*exec.Cmd{w1, w2} {
		w.Process.Signal(syscall.SIGINT)
		w.Wait()
	}
	if code := coord.ProcessState.ExitCode(); code != cli.ExitOK {
		t.Fatalf("eval: exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
	ev := decodeEval(t, outcome{stdout: out.String(), stderr: errOut.String()})
	lost := 6 - len(ev.Results)
	finished := 0
	for _, home := range []string{home0, home1, home2} {
		runs, _ := runlog.List(home)
		for _, r := range runs {
			if r.Status == event.StatusFinished {
				finished++
			}
		}
	}
	twice := finished - len(ev.Results)
	t.Logf("eval: %d runs, %d lost, %d twice", len(ev.Results), lost, twice)
	if lost != 0 || twice != 0 {
		t.Errorf("eval: %d runs, %d lost, %d twice\n%s", len(ev.Results), lost, twice, errOut.String())
	}
	for _, r := range ev.Results {
		if !r.Pass {
			t.Errorf("run %d: %+v", r.Rep, r)
		}
	}
}
