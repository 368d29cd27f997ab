package cli_test

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"hermes/backend/cli"
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runlog"
)

// writeSteps scripts a model that writes step0.txt … step(n-1).txt, one per
// turn, then answers. It is stateless, so a resumed run picks up where the
// conversation stands. The turn after `holdAt` results waits on hold.
func writeSteps(t *testing.T, n, holdAt int, hold <-chan struct{}, holding *atomic.Bool) *llmtest.Server {
	return llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		done := 0
		for _, m := range req.Messages {
			if m.Role == llm.RoleTool && !strings.HasPrefix(m.Content, "Not run") {
				done++
			}
		}
		if done >= n {
			return llmtest.Step{Content: fmt.Sprintf("Wrote %d files.", n)}
		}
		step := llmtest.Step{Content: fmt.Sprintf("Writing step %d.", done), ToolCalls: []llm.ToolCall{{
			ID: fmt.Sprintf("w%d", done), Name: "write_file",
			Arguments: fmt.Sprintf(`{"path":"step%d.txt","content":"%d"}`, done, done),
		}}}
		if done == holdAt && holding.Load() {
			step.Wait = hold
		}
		return step
	})
}

func TestRun_LiveOutputAndLog(t *testing.T) {
	var holding atomic.Bool
	srv := writeSteps(t, 2, -1, nil, &holding)
	home, ws := t.TempDir(), t.TempDir()
	out := runHermes(t, "run", "--yes", "--home", home, "--base-url", srv.URL, "--workspace", ws, "write two files")
	if out.code != cli.ExitOK {
		t.Fatalf("exit %d\n%s\n%s", out.code, out.stdout, out.stderr)
	}
	for _, want := range []string{"1", "2", "3", "write_file", "step1.txt", "Wrote 2 files."} {
		if !strings.Contains(out.stdout, want) {
			t.Errorf("live output lacks %q:\n%s", want, out.stdout)
		}
	}
	if strings.Contains(out.stdout, "\x1b[") {
		t.Error("colour codes in a pipe")
	}
	runs, err := runlog.List(home)
	if err != nil || len(runs) != 1 || runs[0].Status != event.StatusFinished || runs[0].Iterations != 3 {
		t.Fatalf("runs = %+v, %v", runs, err)
	}
	for i := range 2 {
		if b, err := os.ReadFile(filepath.Join(ws, fmt.Sprintf("step%d.txt", i))); err != nil || string(b) != fmt.Sprint(i) {
			t.Errorf("step%d.txt = %q, %v", i, b, err)
		}
	}
}

func TestRun_ExitCodes(t *testing.T) {
	var holding atomic.Bool
	srv := writeSteps(t, 5, -1, nil, &holding)
	out := runHermes(t, "run", "--yes", "--home", t.TempDir(), "--base-url", srv.URL, "--workspace", t.TempDir(), "--max-iterations", "2", "write")
	if out.code != cli.ExitMaxIterations {
		t.Errorf("max_iterations: exit %d, want %d\n%s", out.code, cli.ExitMaxIterations, out.stderr)
	}
	if out := runHermes(t, "run", "--home", t.TempDir()); out.code != cli.ExitUsage {
		t.Errorf("no task: exit %d, want %d", out.code, cli.ExitUsage)
	}
}

func TestRun_ModelSettingsErrorsBeforeAnyIteration(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String() + "/v1"
	l.Close()
	home := t.TempDir()
	out := runHermes(t, "run", "--home", home, "--base-url", closed, "hello")
	if out.code != cli.ExitFailed || !strings.Contains(out.stderr, "base_url") {
		t.Errorf("unreachable endpoint: exit %d, stderr %q", out.code, out.stderr)
	}
	if strings.Contains(out.stderr+out.stdout, testKey) {
		t.Error("the API key was printed")
	}
	if runs, _ := runlog.List(home); len(runs) != 0 {
		t.Errorf("a run was started: %+v", runs)
	}

	cmd := hermes(t, "run", "--home", home, "--base-url", "https://models.example.com/v1", "hello")
	cmd.Env = []string{"HERMES_TEST_MAIN=1", "HERMES_LANG=en", "HOME=" + t.TempDir()}
	b, _ := cmd.CombinedOutput()
	if cmd.ProcessState.ExitCode() != cli.ExitFailed || !strings.Contains(string(b), "[[model.endpoints]]") {
		t.Errorf("missing key: exit %d, output %q", cmd.ProcessState.ExitCode(), b)
	}
}

func TestRun_CtrlCStopsAtSafePointThenResumes(t *testing.T) {
	hold := make(chan struct{})
	var holding atomic.Bool
	holding.Store(true)
	srv := writeSteps(t, 3, 1, hold, &holding)
	home, ws := t.TempDir(), t.TempDir()
	cmd := hermes(t, "run", "--yes", "--json", "--home", home, "--base-url", srv.URL, "--workspace", ws, "write three files")
	runID, _ := interruptAt(t, cmd, 2, "Ctrl-C again", func() {
		holding.Store(false)
		close(hold)
	})
	// The stop fell after the model's decision, before its call ran.
	if _, err := os.Stat(filepath.Join(ws, "step1.txt")); err == nil {
		t.Fatal("a call decided before the stop still ran")
	}
	out := runHermes(t, "resume", "--yes", "--home", home, "--base-url", srv.URL, runID)
	if out.code != cli.ExitOK || !strings.Contains(out.stdout, "Wrote 3 files.") {
		t.Fatalf("resume: exit %d\n%s\n%s", out.code, out.stdout, out.stderr)
	}
}

func TestResume_AfterSIGKILLLosesNoEvent(t *testing.T) {
	hold := make(chan struct{})
	var holding atomic.Bool
	holding.Store(true)
	srv := writeSteps(t, 6, 3, hold, &holding)
	home, ws := t.TempDir(), t.TempDir()
	cmd := hermes(t, "run", "--yes", "--json", "--home", home, "--base-url", srv.URL, "--workspace", ws, "write six files")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var before []event.Event
	for e := range eventStream(t, stdout) {
		before = append(before, e)
		if e.Type == event.ContextBuilt && e.Iteration == 4 {
			// Killed half-way through iteration 4, waiting on the model.
			cmd.Process.Kill()
			break
		}
	}
	cmd.Wait()
	holding.Store(false)
	close(hold)
	runID := before[0].RunID

	out := runHermes(t, "resume", "--yes", "--json", "--home", home, "--base-url", srv.URL, runID)
	if out.code != cli.ExitOK {
		t.Fatalf("resume: exit %d\n%s", out.code, out.stderr)
	}
	path, err := runlog.Find(home, runID)
	if err != nil {
		t.Fatal(err)
	}
	events, err := runlog.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	decisions := map[int]int{}
	for i, e := range events {
		if e.Seq != int64(i+1) {
			t.Fatalf("event %d has seq %d: lost or duplicated", i, e.Seq)
		}
		if e.Type == event.ModelDecided {
			decisions[e.Iteration]++
		}
	}
	for it := 1; it <= 7; it++ {
		if decisions[it] != 1 {
			t.Errorf("iteration %d decided %d times", it, decisions[it])
		}
	}
	// Everything the killed process published up to its last durable
	// checkpoint is in the log unchanged. Checkpoints are synced in the
	// background, so that is one of the checkpoints it announced, not
	// always the last.
	resumedAt := slices.IndexFunc(events, func(e event.Event) bool { return e.Type == event.RunResumed })
	if resumedAt < 1 || resumedAt > len(before) || before[resumedAt-1].Type != event.CheckpointSaved {
		t.Fatalf("the run resumed at event %d, not after a checkpoint the killed process announced", resumedAt)
	}
	for i := range resumedAt {
		if string(before[i].Data) != string(events[i].Data) || before[i].Type != events[i].Type {
			t.Fatalf("event %d changed across the crash: %s vs %s", i, before[i].Type, events[i].Type)
		}
	}
	if last := events[len(events)-1]; last.Type != event.RunFinished {
		t.Errorf("last event %s", last.Type)
	}
	for i := range 6 {
		if _, err := os.Stat(filepath.Join(ws, fmt.Sprintf("step%d.txt", i))); err != nil {
			t.Errorf("step%d.txt missing", i)
		}
	}
}

// A mistake in the config stops `hermes run` and `hermes resume` before
// anything starts, with exit 2 as the README says, and its line and column.
func TestRun_ConfigErrorsExitUsage(t *testing.T) {
	var holding atomic.Bool
	srv := writeSteps(t, 1, -1, nil, &holding)
	tests := []struct{ name, toml, want string }{
		{"unknown key", "[agent]\nmax_iteratons = 3\n", "line 2, column 1"},
		{"syntax", "[agent\nmax_iterations = 3\n", "line 1, column 7"},
		{"wrong type", "[agent]\nmax_iterations = \"many\"\n", "line 2, column 1"},
		{"out of range", "[agent]\nmax_iterations = -1\n", "max_iterations is -1"},
		{"no such workspace", "[agent]\nworkspace = '/nonexistent/hermes-test'\n[model]\nbase_url = '" + srv.URL + "'\n", "/nonexistent/hermes-test"},
		{"no such vault", "[obsidian]\nvault = '/nonexistent/hermes-vault'\n[model]\nbase_url = '" + srv.URL + "'\n", "/nonexistent/hermes-vault"},
		{"bad exclude pattern", "[obsidian]\nvault = '" + t.TempDir() + "'\nexclude = ['[a-']\n[model]\nbase_url = '" + srv.URL + "'\n", "[a-"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte(tt.toml), 0o600); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{
				{"run", "--yes", "--home", home, "hello"},
				{"resume", "--yes", "--home", home, "20261130-090000-aaaaaa"},
			} {
				if args[0] == "resume" && tt.name == "no such workspace" {
					continue // a resumed run keeps the workspace it started in
				}
				out := runHermes(t, args...)
				if out.code != cli.ExitUsage || !strings.Contains(out.stderr, tt.want) {
					t.Errorf("hermes %s: exit %d, want %d, with %q in stderr:\n%s", args[0], out.code, cli.ExitUsage, tt.want, out.stderr)
				}
			}
			if runs, _ := runlog.List(home); len(runs) != 0 {
				t.Errorf("a run was started: %+v", runs)
			}
		})
	}
	// --config names the file instead of the home's.
	bad := filepath.Join(t.TempDir(), "other.toml")
	if err := os.WriteFile(bad, []byte("colour = 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if out := runHermes(t, "run", "--home", t.TempDir(), "--config", bad, "--base-url", srv.URL, "hello"); out.code != cli.ExitUsage {
		t.Errorf("--config with an unknown key: exit %d\n%s", out.code, out.stderr)
	}
	if out := runHermes(t, "run", "--home", modelHome(t, srv.URL, t.TempDir()), "--vault", "/nonexistent/hermes-vault", "hello"); out.code != cli.ExitUsage {
		t.Errorf("--vault that does not exist: exit %d\n%s", out.code, out.stderr)
	}
}

// A run handed to the process that owns the home reads the home's config
// too; a mistake there is exit 2 as well.
func TestRun_ConfigErrorExitUsageWhenAttached(t *testing.T) {
	var holding atomic.Bool
	srv := writeSteps(t, 1, -1, nil, &holding)
	home := modelHome(t, srv.URL, t.TempDir())
	owner := startServeProcess(t, home)
	defer owner.stop(t)
	// The owner keeps the last good config; the file now has a mistake.
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte("[agent]\nmax_iteratons = 3\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out := runHermes(t, "run", "--yes", "--home", home, "hello")
	if out.code != cli.ExitUsage || !strings.Contains(out.stderr, "line 2, column 1") {
		t.Errorf("exit %d, want %d:\n%s", out.code, cli.ExitUsage, out.stderr)
	}
}

// TestResume_KeepsTheRunsEndpoint: `hermes run --base-url B --model mb`,
// Ctrl-C, then `hermes resume ID` goes on at B with mb and B's key, not at
// the configured endpoint; `--model` at resume switches, and says so.
func TestResume_KeepsTheRunsEndpoint(t *testing.T) {
	const keyB = "sk-endpoint-b-0123456789"
	configured := llmtest.NewServer(t)
	hold := make(chan struct{})
	var holding atomic.Bool
	holding.Store(true)
	b := writeSteps(t, 3, 1, hold, &holding)
	home, ws := t.TempDir(), t.TempDir()
	toml := fmt.Sprintf("agent = { strategy = \"react\", route = false }\n[model]\nbase_url = %q\nmodel = \"ma\"\n\n[[model.endpoints]]\nbase_url = %q\napi_key_env = \"B_KEY\"\n", configured.URL, b.URL)
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	// B is not the configured endpoint: hermes.toml's [model] base_url is.
	atB := func(cmd *exec.Cmd) *exec.Cmd {
		cmd.Env = slices.DeleteFunc(cmd.Env, func(v string) bool { return strings.HasPrefix(v, "OPENAI_BASE_URL=") })
		cmd.Env = append(cmd.Env, "B_KEY="+keyB)
		return cmd
	}
	cmd := atB(hermes(t, "run", "--yes", "--json", "--home", home, "--base-url", b.URL, "--model", "mb", "--workspace", ws, "write three files"))
	runID, _ := interruptAt(t, cmd, 2, "Ctrl-C again", func() {
		holding.Store(false)
		close(hold)
	})
	var out bytes.Buffer
	resume := atB(hermes(t, "resume", "--yes", "--home", home, "--max-iterations", "3", runID))
	resume.Stdout, resume.Stderr = &out, &out
	if err := resume.Run(); resume.ProcessState == nil || resume.ProcessState.ExitCode() != cli.ExitMaxIterations {
		t.Fatalf("resume: %v\n%s", err, out.String())
	}
	if n := len(configured.Requests()); n != 0 {
		t.Errorf("the configured endpoint was asked %d times", n)
	}
	reqs := b.Requests()
	if len(reqs) != 3 {
		t.Fatalf("B was asked %d times, want 3", len(reqs))
	}
	for i, r := range reqs {
		if r.Model != "mb" || r.Header.Get("Authorization") != "Bearer "+keyB {
			t.Errorf("request %d asked %q with %q", i, r.Model, r.Header.Get("Authorization"))
		}
	}
	if strings.Contains(out.String(), "model switched") {
		t.Errorf("a resume without --model printed a switch:\n%s", out.String())
	}

	out.Reset()
	resume = atB(hermes(t, "resume", "--yes", "--home", home, "--model", "mb2", runID))
	resume.Stdout, resume.Stderr = &out, &out
	if err := resume.Run(); err != nil {
		t.Fatalf("resume --model: %v\n%s", err, out.String())
	}
	if want := "model switched: mb @ " + b.URL + " → mb2 @ " + b.URL; !strings.Contains(out.String(), want) {
		t.Errorf("resume --model did not print %q:\n%s", want, out.String())
	}
	if last := b.Requests()[len(b.Requests())-1]; last.Model != "mb2" {
		t.Errorf("resume --model asked %q", last.Model)
	}
}
