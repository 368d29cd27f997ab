// Command evalbench is bench/eval.sh's helper: it runs a suite of tasks
// through `hermes eval run` against a scripted model that answers at once,
// and prints what the harness itself costs per run: the hermes process's
// CPU time (user + sys, every thread, from its rusage) and wall time, over
// every run, beside the model server's CPU, which this process spends.
//
//	evalbench -hermes PATH [-tasks 10] [-runs 1000] [-parallel 8]
//
// Each run is one iteration: the model answers the task in its first turn
// with no tool call. Each task has a fixture of three files, copied for
// every run, and two checks (the answer, no tool called). The home's store
// and run logs are written as in any run.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"hermes/backend/llm/llmtest"
)

func main() {
	hermes := flag.String("hermes", "", "the hermes binary")
	tasks := flag.Int("tasks", 10, "tasks in the suite")
	runs := flag.Int("runs", 1000, "runs in all (a multiple of -tasks)")
	parallel := flag.Int("parallel", 8, "runs at once")
	flag.Parse()
	if *hermes == "" || *tasks < 1 || *runs%*tasks != 0 {
		flag.Usage()
		os.Exit(2)
	}
	tmp, err := os.MkdirTemp("", "evalbench")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)

	tb := &processTB{}
	defer tb.cleanup()
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
		log.Fatalf("hermes eval: %v, %v\n%s", runErr, err, tail(errOut.String()))
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
		log.Fatal(err)
	}
}

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
