// Command evalbench is bench/eval.sh's helper: it runs a suite of tasks
// through `hermes eval run` against a scripted model that answers at once,
// and prints what the harness itself costs per run: the hermes process's
// CPU time (user + sys, every thread, from its rusage) and wall time, over
// every run, beside the model server's CPU, which this process spends.
//
//	evalbench -hermes PATH [-tasks 10] [-runs 1000] [-parallel 8] [-workers 3]
//
// With -workers, the runs go through `hermes eval run --cluster` to that
// many `hermes worker` processes on a NATS server with JetStream (run in
// this process, on loopback); once a third of the results are in, the first
// worker is killed with SIGKILL, and the last line says how many runs were
// lost and how many finished twice (counted from the workers' own logs).
//
// Each run is one iteration: the model answers the task in its first turn
// with no tool call. Each task has a fixture of three files, copied for
// every run, and two checks (the answer, no tool called). The home's store
// and run logs are written as in any run.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"hermes/backend/event"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runlog"
)

func main() {
	hermes := flag.String("hermes", "", "the hermes binary")
	tasks := flag.Int("tasks", 10, "tasks in the suite")
	runs := flag.Int("runs", 1000, "runs in all (a multiple of -tasks)")
	parallel := flag.Int("parallel", 8, "runs at once")
	workers := flag.Int("workers", 0, "run on NATS with this many hermes worker processes, one killed")
	flag.Parse()
	if *hermes == "" || *tasks < 1 || *runs%*tasks != 0 {
		flag.Usage()
		os.Exit(2)
	}
	tmp, err := os.MkdirTemp("", "evalbench")
	if err != nil {
		log.Fatal(err)
	}
	tb := bench
	defer tb.cleanup()
	tb.Cleanup(func() { _ = os.RemoveAll(tmp) })
	model := llmtest.NewFuncServer(tb, func(req llmtest.Request) llmtest.Step {
		return llmtest.Step{Content: "Done: the task is answered."}
	})

	home := filepath.Join(tmp, "home")
	dir := filepath.Join(tmp, "suite")
	must(os.MkdirAll(home, 0o755))
	must(os.WriteFile(filepath.Join(home, "hermes.toml"), fmt.Appendf(nil,
		"[model]\nbase_url = %q\nmax_retries = 0\n\n[agent]\nstrategy = \"react\"\nroute = false\n", model.URL), 0o600))
	var suite strings.Builder
	suite.WriteString("name = \"bench\"\n[defaults]\nmax_iterations = 3\n")
	for i := range *tasks {
		fx := filepath.Join(dir, "fixtures", fmt.Sprint(i))
		must(os.MkdirAll(filepath.Join(fx, "notes"), 0o755))
		for _, f := range []string{"README.md", "notes/a.md", "notes/b.md"} {
			must(os.WriteFile(filepath.Join(fx, f), []byte(strings.Repeat("a line of the fixture\n", 40)), 0o644))
		}
		fmt.Fprintf(&suite, "\n[[task]]\nid = \"t%d\"\ntask = \"task %d: answer it\"\nworkspace = \"fixtures/%d\"\n"+
			"  [[task.check]]\n  answer_matches = \"(?i)done\"\n  [[task.check]]\n  no_tool = \"execute_command\"\n", i, i, i)
	}
	must(os.WriteFile(filepath.Join(dir, "suite.toml"), []byte(suite.String()), 0o644))

	if *workers > 0 {
		onCluster(tb, *hermes, tmp, model.URL, filepath.Join(dir, "suite.toml"), *runs / *tasks, *workers, max(*parallel / *workers, 1))
		return
	}
	cmd := exec.Command(*hermes, "eval", "run", "--home", home, "--base-url", model.URL,
		"--repeat", fmt.Sprint(*runs / *tasks), "--parallel", fmt.Sprint(*parallel), "--json", filepath.Join(dir, "suite.toml"))
	cmd.Env = append(os.Environ(), "OPENAI_API_KEY=sk-bench-0000000000000000", "OPENAI_BASE_URL="+model.URL, "HERMES_LANG=en")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	var self0 syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &self0)
	start := time.Now()
	runErr := cmd.Run()
	wall := time.Since(start)
	var self1 syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &self1)
	var ev struct {
		Results []struct {
			Pass  bool   `json:"pass"`
			Error string `json:"error"`
		} `json:"results"`
	}
	if err := json.Unmarshal(out.Bytes(), &ev); err != nil {
		fatalf("hermes eval: %v, %v\n%s", runErr, err, tail(errOut.String()))
	}
	passed := 0
	for _, r := range ev.Results {
		if r.Pass {
			passed++
		}
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	cpu := tv(ru.Utime) + tv(ru.Stime)
	modelCPU := tv(self1.Utime) + tv(self1.Stime) - tv(self0.Utime) - tv(self0.Stime)
	n := len(ev.Results)
	fmt.Printf("eval: %d runs (%d tasks × %d, --parallel %d), %d passed, exit %d\n", n, *tasks, *runs / *tasks, *parallel, passed, cmd.ProcessState.ExitCode())
	fmt.Printf("hermes eval CPU: %.2f s in all, %.2f ms per run (user %.2f, sys %.2f)\n",
		cpu.Seconds(), ms(cpu)/float64(n), ms(tv(ru.Utime))/float64(n), ms(tv(ru.Stime))/float64(n))
	fmt.Printf("wall: %.2f s, %.2f ms per run; the scripted model's CPU (another process's work): %.2f ms per run\n",
		wall.Seconds(), ms(wall)/float64(n), ms(modelCPU)/float64(n))
}

// onCluster runs the suite through hermes eval run --cluster and workers
// hermes worker processes, kills the first once a third of the results are
// in, and prints what was lost and what finished twice.
func onCluster(tb *processTB, hermes, tmp, modelURL, suite string, repeat, workers, parallel int) {
	srv, err := server.NewServer(&server.Options{
		Host: "127.0.0.1", Port: server.RANDOM_PORT, NoLog: true, NoSigs: true,
		JetStream: true, StoreDir: filepath.Join(tmp, "nats"),
	})
	must(err)
	go srv.Start()
	if !srv.ReadyForConnections(30 * time.Second) {
		fatal("the NATS server did not start")
	}
	tb.Cleanup(srv.Shutdown)
	cfg := fmt.Appendf(nil, "[model]\nbase_url = %q\nmax_retries = 0\n\n[agent]\nstrategy = \"react\"\nroute = false\n\n[cluster]\nnats_url = %q\nack_wait = \"2s\"\n", modelURL, srv.ClientURL())
	env := append(os.Environ(), "OPENAI_API_KEY=sk-bench-0000000000000000", "HERMES_LANG=en")
	newHome := func(name string) string {
		h := filepath.Join(tmp, name)
		must(os.MkdirAll(h, 0o755))
		must(os.WriteFile(filepath.Join(h, "hermes.toml"), cfg, 0o600))
		return h
	}
	var homes []string
	var procs []*exec.Cmd
	for i := range workers {
		h := newHome(fmt.Sprintf("worker%d", i))
		cmd := exec.Command(hermes, "worker", "--home", h, "--parallel", fmt.Sprint(parallel))
		cmd.Env = env
		errPipe, err := cmd.StderrPipe()
		must(err)
		must(cmd.Start())
		ready := make(chan struct{})
		go func() {
			sc := bufio.NewScanner(errPipe)
			once := false
			for sc.Scan() {
				if !once && strings.Contains(sc.Text(), "taking eval runs") {
					once = true
					close(ready)
				}
			}
		}()
		<-ready
		homes, procs = append(homes, h), append(procs, cmd)
	}
	cmd := exec.Command(hermes, "eval", "run", "--cluster", "--home", newHome("coordinator"), "--repeat", fmt.Sprint(repeat), "--json", suite)
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout = &out
	errPipe, err := cmd.StderrPipe()
	must(err)
	start := time.Now()
	must(cmd.Start())
	sc := bufio.NewScanner(errPipe)
	progress := regexp.MustCompile(`^\[(\d+)/(\d+)\]`)
	killed := false
	for sc.Scan() {
		m := progress.FindStringSubmatch(sc.Text())
		if m == nil || killed {
			continue
		}
		done, _ := strconv.Atoi(m[1])
		total, _ := strconv.Atoi(m[2])
		if done*3 >= total {
			_ = procs[0].Process.Kill()
			_ = procs[0].Wait()
			killed = true
			fmt.Printf("worker 0 killed with SIGKILL at %d/%d results\n", done, total)
		}
	}
	_ = cmd.Wait()
	wall := time.Since(start)
	for _, p := range procs[1:] {
		_ = p.Process.Signal(os.Interrupt)
		_ = p.Wait()
	}
	var ev struct {
		Results []struct {
			Task  string `json:"task"`
			Rep   int    `json:"rep"`
			Pass  bool   `json:"pass"`
			Error string `json:"error"`
		} `json:"results"`
	}
	if err := json.Unmarshal(out.Bytes(), &ev); err != nil {
		fatalf("hermes eval run --cluster: %v", err)
	}
	passed, twice := 0, 0
	seen := map[string]bool{}
	for _, r := range ev.Results {
		k := fmt.Sprintf("%s#%d", r.Task, r.Rep)
		if seen[k] {
			twice++
		}
		seen[k] = true
		if r.Pass {
			passed++
		} else if r.Error != "" {
			log.Printf("a run's error: %s", r.Error)
		}
	}
	finished := 0
	for _, h := range homes {
		runs, _ := runlog.List(h)
		for _, r := range runs {
			if r.Status == event.StatusFinished {
				finished++
			}
		}
	}
	want := repeat * 10
	if n := strings.Count(string(must2(os.ReadFile(suite))), "[[task]]"); n > 0 {
		want = repeat * n
	}
	fmt.Printf("wall: %.2f s for %d runs on %d workers, %d passed\n", wall.Seconds(), len(ev.Results), workers, passed)
	// A result is kept once per run (the results bucket's create); a run
	// the killed worker finished but had not handed in is run again, and
	// its logs show it twice.
	fmt.Printf("eval: %d runs, %d lost, %d twice\n", len(seen), want-len(seen), twice)
	fmt.Printf("runs finished in the workers' logs: %d (%d finished by the killed worker before it handed their results in, run again)\n", finished, finished-len(seen))
}

func must2(b []byte, err error) []byte {
	must(err)
	return b
}

func tv(t syscall.Timeval) time.Duration {
	return time.Duration(t.Sec)*time.Second + time.Duration(t.Usec)*time.Microsecond
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func tail(s string) string {
	if len(s) > 2000 {
		return s[len(s)-2000:]
	}
	return s
}

func must(err error) {
	if err != nil {
		fatal(err)
	}
}

// bench is the program's processTB: its cleanups (the temporary folder,
// the scripted model, the NATS server) run at the end of main, and before
// a fatal error's exit, which a deferred call would not wait for.
var bench = &processTB{}

func fatal(v ...any) {
	bench.cleanup()
	log.Fatal(v...)
}

func fatalf(format string, v ...any) { fatal(fmt.Sprintf(format, v...)) }

// processTB is the part of testing.TB that llmtest uses, so that its
// scripted server runs in this program.
type processTB struct {
	testing.TB
	cleanups []func()
}

func (t *processTB) Helper()                           {}
func (t *processTB) Cleanup(f func())                  { t.cleanups = append(t.cleanups, f) }
func (t *processTB) Errorf(format string, args ...any) { log.Printf(format, args...) }

func (t *processTB) cleanup() {
	for i := len(t.cleanups) - 1; i >= 0; i-- {
		t.cleanups[i]()
	}
}
