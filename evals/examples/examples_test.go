// Package examples holds the example suites of hermes eval, which the docs
// use; its tests run them through hermes, as a user would, against the
// scripted models of bench/tasks.
package examples_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"hermes/backend/cli"
	"hermes/backend/cli/clitest"
	"hermes/backend/eval"
	"hermes/backend/llm/llmtest"
	"hermes/bench/tasks"
)

var write = flag.Bool("write", false, "write the fixtures of strategies.toml from bench/tasks")

func TestMain(m *testing.M) { clitest.Main(m) }

// TestFixtures_MatchTheTasks keeps each task's fixture the workspace
// bench/tasks starts it with (-write writes them).
func TestFixtures_MatchTheTasks(t *testing.T) {
	if *write {
		for _, task := range tasks.Examples() {
			dir := filepath.Join("fixtures", task.Name)
			if err := os.RemoveAll(dir); err != nil {
				t.Fatal(err)
			}
			if err := task.WriteFiles(dir); err != nil {
				t.Fatal(err)
			}
		}
	}
	s, err := eval.Load("strategies.toml")
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]tasks.Task{}
	for _, task := range tasks.Examples() {
		byName[task.Name] = task
	}
	if len(s.Tasks) != len(byName) {
		t.Errorf("the suite has %d tasks, bench/tasks %d it can run", len(s.Tasks), len(byName))
	}
	for _, st := range s.Tasks {
		task, ok := byName[st.ID]
		if !ok {
			t.Errorf("task %s is not in bench/tasks", st.ID)
			continue
		}
		if task.Prompt != st.Task {
			t.Errorf("task %s: %q, bench/tasks says %q", st.ID, st.Task, task.Prompt)
		}
		if st.Workspace == "" {
			if len(task.Files) > 0 {
				t.Errorf("task %s has no workspace", st.ID)
			}
			continue
		}
		dir := filepath.Join("fixtures", st.ID)
		got := map[string]string{}
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				b, _ := os.ReadFile(p)
				rel, _ := filepath.Rel(dir, p)
				got[filepath.ToSlash(rel)] = string(b)
			}
			return nil
		})
		if len(got) != len(task.Files) {
			t.Errorf("%s holds %d files, bench/tasks %d: go test ./evals/examples -write", dir, len(got), len(task.Files))
		}
		for name, text := range task.Files {
			if got[name] != text {
				t.Errorf("%s/%s is %q, bench/tasks says %q: go test ./evals/examples -write", dir, name, got[name], text)
			}
		}
	}
}

// TestStrategies_PassThroughHermesEval runs the suite as a user does, with
// the plan strategy and routing, against the tasks' scripted models.
func TestStrategies_PassThroughHermesEval(t *testing.T) {
	srv := llmtest.NewFuncServer(t, tasks.Model(tasks.Examples()))
	home := t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), exe, "eval", "run", "--home", home, "--base-url", srv.URL, "--parallel", "4", "--json", "strategies.toml")
	cmd.Env = []string{
		"HERMES_TEST_MAIN=1", "HERMES_LANG=en", "NO_COLOR=1", "OPENAI_API_KEY=sk-suite-0000000000000000",
		"OPENAI_BASE_URL=" + srv.URL, "HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH"),
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	code := cmd.ProcessState.ExitCode()
	var ev struct {
		Results []eval.Result `json:"results"`
	}
	if jerr := json.Unmarshal(out.Bytes(), &ev); jerr != nil {
		t.Fatalf("exit %d (%v): %v\n%s\n%s", code, err, jerr, out.String(), errOut.String())
	}
	if len(ev.Results) != len(tasks.Examples()) {
		t.Errorf("%d results, want one per task\n%s", len(ev.Results), errOut.String())
	}
	for _, r := range ev.Results {
		if !r.Pass {
			t.Errorf("%s: error %q, checks %+v", r.Task, r.Error, r.Checks)
		}
	}
	if code != cli.ExitOK {
		t.Errorf("exit %d\n%s", code, errOut.String())
	}
}
