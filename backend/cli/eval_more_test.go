package cli_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"hermes/backend/cli"
	"hermes/backend/eval"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runlog"
)

// TestEval_VaultFixtureCopiedPerRun: a task's vault is a fresh copy for
// every run, offered with the vault's tools; the fixture stays as it was.
func TestEval_VaultFixtureCopiedPerRun(t *testing.T) {
	srv := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		for _, m := range req.Messages {
			if m.Role == llm.RoleTool {
				return llmtest.Step{Content: "Appended."}
			}
		}
		return llmtest.Step{Content: "Appending.", ToolCalls: []llm.ToolCall{{ID: "a1", Name: "append_note",
			Arguments: `{"note":"Plan.md","content":"- appended by the run"}`}}}
	})
	home, dir := t.TempDir(), t.TempDir()
	cfg := fmt.Sprintf("[model]\nbase_url = %q\nmax_retries = 0\n\n[agent]\nstrategy = \"react\"\nroute = false\n", srv.URL)
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	v := filepath.Join(dir, "fixtures", "vault")
	if err := os.MkdirAll(v, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(v, "Plan.md"), []byte("# Plan\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	suite := writeSuite(t, dir, "v.toml", `name = "v"
[[task]]
id = "append"
task = "append a line to the Plan note in the vault"
vault = "fixtures/vault"
  [[task.check]]
  tool = "append_note"
  args = { note = "Plan.md" }
`)
	before := treeHash(t, filepath.Join(dir, "fixtures"))
	out := runHermes(t, "eval", "run", "--home", home, "--base-url", srv.URL, "--repeat", "2", "--json", suite)
	if out.code != cli.ExitOK {
		t.Fatalf("exit %d\n%s\n%s", out.code, out.stdout, out.stderr)
	}
	ev := decodeEval(t, out)
	if treeHash(t, filepath.Join(dir, "fixtures")) != before {
		t.Error("the vault fixture changed")
	}
	for rep := range 2 {
		p := filepath.Join(home, "evals", ev.ID, "append", fmt.Sprintf("default-%d", rep), "vault", "Plan.md")
		if b, err := os.ReadFile(p); err != nil || strings.Count(string(b), "appended by the run") != 1 {
			t.Errorf("run %d's copy of the vault: %q, %v", rep, b, err)
		}
	}
}

// TestEvalAdd_RunToTestCase: hermes eval add writes a task with the run's
// task, a fixture of the file it read as it was before the run, and
// checks proposed from what it did, which pass when the suite runs.
func TestEvalAdd_RunToTestCase(t *testing.T) {
	m := newEvalModel(t)
	home, dir := evalHome(t, m)
	ws := t.TempDir()
	if err := os.CopyFS(ws, os.DirFS(filepath.Join(dir, "fixtures", "notes"))); err != nil {
		t.Fatal(err)
	}
	run := runHermes(t, "run", "--yes", "--home", home, "--base-url", m.URL, "--workspace", ws, "summarise the notes into SUMMARY.md")
	if run.code != cli.ExitOK {
		t.Fatalf("run: exit %d\n%s", run.code, run.stderr)
	}
	runs, err := runlog.List(home)
	if err != nil || len(runs) != 1 {
		t.Fatalf("runs = %v, %v", runs, err)
	}
	// The note changes after the run: the fixture holds it as the run read it.
	if err := os.WriteFile(filepath.Join(ws, "notes", "alpha.md"), []byte("changed since\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	suite := filepath.Join(t.TempDir(), "cases.toml")
	add := runHermes(t, "eval", "add", "--home", home, suite, runs[0].RunID)
	if add.code != cli.ExitOK {
		t.Fatalf("eval add: exit %d\n%s", add.code, add.stderr)
	}
	s, err := eval.Load(suite)
	if err != nil {
		t.Fatalf("the suite eval add wrote: %v\n%s", err, add.stdout)
	}
	task := s.Tasks[0]
	if task.Task != "summarise the notes into SUMMARY.md" || task.Workspace == "" {
		t.Errorf("task = %+v", task)
	}
	b, err := os.ReadFile(filepath.Join(filepath.Dir(suite), task.Workspace, "notes", "alpha.md"))
	if err != nil || string(b) != "# Alpha\nMeeting on Friday.\n" {
		t.Errorf("fixture notes/alpha.md = %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(suite), task.Workspace, "SUMMARY.md")); err == nil {
		t.Error("the fixture holds the file the run wrote")
	}
	kinds := map[string]int{}
	for _, c := range task.Checks {
		kinds[c.Kind()]++
	}
	if kinds[eval.KindFile] != 1 || kinds[eval.KindTool] != 2 || kinds[eval.KindAnswer] != 1 || kinds[eval.KindLimits] != 1 {
		t.Errorf("proposed checks %v:\n%s", kinds, add.stdout)
	}
	out := runHermes(t, "eval", "run", "--home", home, "--base-url", m.URL, "--json", suite)
	if out.code != cli.ExitOK {
		t.Errorf("the proposed case does not pass: exit %d\n%s\n%s", out.code, out.stdout, out.stderr)
	}
}

func TestRunsLabel(t *testing.T) {
	m := newEvalModel(t)
	home, dir := evalHome(t, m)
	suite := writeSuite(t, dir, "flaky.toml", "name = \"f\"\n[[task]]\nid = \"flaky\"\ntask = \"flaky: write OUT.txt\"\n  [[task.check]]\n  file = \"OUT.txt\"\n  equals = \"ok\"\n")
	out := runHermes(t, "eval", "run", "--home", home, "--base-url", m.URL, "--repeat", "3", "--json", suite)
	ev := decodeEval(t, out)
	var bad string
	for _, r := range ev.Results {
		if !r.Pass {
			bad = r.RunID
		}
	}
	if bad == "" {
		t.Fatalf("no failed run: %+v", ev.Results)
	}
	if l := runHermes(t, "runs", "label", "--home", home, bad, "bad", "--note", "wrote bad"); l.code != cli.ExitOK {
		t.Fatalf("label: exit %d\n%s", l.code, l.stderr)
	}
	list := runHermes(t, "runs", "--home", home, "--label", "bad", "--json")
	var runs []runlog.Summary
	if err := json.Unmarshal([]byte(list.stdout), &runs); err != nil || len(runs) != 1 || runs[0].RunID != bad {
		t.Errorf("runs --label bad = %s (%v)", list.stdout, err)
	}
	if l := runHermes(t, "runs", "label", "--home", home, bad, "none"); l.code != cli.ExitOK {
		t.Fatalf("unlabel: exit %d\n%s", l.code, l.stderr)
	}
	list = runHermes(t, "runs", "--home", home, "--label", "bad", "--json")
	if strings.Contains(list.stdout, bad) {
		t.Errorf("an unlabelled run is listed as bad:\n%s", list.stdout)
	}
	if l := runHermes(t, "runs", "label", "--home", home, bad, "great"); l.code != cli.ExitUsage {
		t.Errorf("label great: exit %d", l.code)
	}
}

// TestEval_RateLimitedRunStartsAgain: a run that the provider's rate limit
// failed (HTTP 429 past the client's retries) is started again, and is a
// result, not an error; the eval runs fewer at once from then.
func TestEval_RateLimitedRunStartsAgain(t *testing.T) {
	var limited atomic.Int64
	srv := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		if limited.Add(1) == 1 {
			return llmtest.Step{Status: 429, RetryAfter: "0", Content: "slow down"}
		}
		return llmtest.Step{Content: "Done."}
	})
	home, dir := t.TempDir(), t.TempDir()
	cfg := fmt.Sprintf("[model]\nbase_url = %q\nmax_retries = 0\n\n[agent]\nstrategy = \"react\"\nroute = false\n", srv.URL)
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	suite := writeSuite(t, dir, "r.toml", "name = \"r\"\n[[task]]\nid = \"done\"\ntask = \"say done\"\n  [[task.check]]\n  answer_matches = \"Done\"\n")
	out := runHermes(t, "eval", "run", "--home", home, "--base-url", srv.URL, "--parallel", "4", "--json", suite)
	if out.code != cli.ExitOK {
		t.Fatalf("exit %d\n%s\n%s", out.code, out.stdout, out.stderr)
	}
	if !strings.Contains(out.stderr, "rate limit failed done · default: it starts again in 1s, with at most 2 runs at once") {
		t.Errorf("the rate limit is not told:\n%s", out.stderr)
	}
	ev := decodeEval(t, out)
	if len(ev.Results) != 1 || !ev.Results[0].Pass || ev.Results[0].Error != "" {
		t.Errorf("results = %+v", ev.Results)
	}
}

// TestEval_BaseURLSecretNotKept: a password in --base-url is masked in
// what the eval keeps and prints; a resume asks for the URL again.
func TestEval_BaseURLSecretNotKept(t *testing.T) {
	m := newEvalModel(t)
	home, dir := evalHome(t, m)
	suite := writeSuite(t, dir, "s.toml", summarySuite("\n  [[task.check]]\n  file = \"SUMMARY.md\"\n  contains = \"Friday\"\n"))
	secretURL := strings.Replace(m.URL, "http://", "http://me:hunter2secret@", 1)
	out := runHermes(t, "eval", "run", "--home", home, "--base-url", secretURL, "--json", suite)
	if out.code != cli.ExitOK {
		t.Fatalf("exit %d\n%s", out.code, out.stderr)
	}
	id := decodeEval(t, out).ID
	show := runHermes(t, "eval", "show", "--home", home, "--json", id)
	for _, s := range []string{out.stdout, out.stderr, show.stdout} {
		if strings.Contains(s, "hunter2secret") {
			t.Fatalf("the password shows:\n%s", s)
		}
	}
	again := runHermes(t, "eval", "run", "--home", home, "--resume", id)
	if again.code != cli.ExitUsage || !strings.Contains(again.stderr, "--base-url") {
		t.Errorf("resume without the URL: exit %d\n%s", again.code, again.stderr)
	}
	again = runHermes(t, "eval", "run", "--home", home, "--resume", id, "--base-url", secretURL)
	if again.code != cli.ExitOK {
		t.Errorf("resume with the URL: exit %d\n%s", again.code, again.stderr)
	}
}
