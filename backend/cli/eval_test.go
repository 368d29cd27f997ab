package cli_test

import (
	"bufio"
	"crypto/sha256"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"hermes/backend/cli"
	"hermes/backend/eval"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
)

// evalModel is the scripted model of the eval tests. A run's task names
// what it does: "summarise" reads notes/alpha.md, writes SUMMARY.md and
// answers; "flaky" writes OUT.txt, "bad" in one run of three; "broken"
// fails with HTTP 500. The judge is asked to grade with a criterion that
// says "good" (0.9) or not (0.2), unless judge is set: then it answers
// what judge returns. fail makes "summarise" write a wrong
// summary; hold, when set, holds the first turn of the runs after the
// first until closed.
type evalModel struct {
	*llmtest.Server
	fail    atomic.Bool
	flaky   atomic.Int64
	holdMu  sync.Mutex
	hold    chan struct{}
	holding chan struct{} // gets a value when a turn is held
	starts  atomic.Int64
	judge   atomic.Pointer[func() llmtest.Step]
}

func newEvalModel(t *testing.T) *evalModel {
	m := &evalModel{holding: make(chan struct{}, 16)}
	m.Server = llmtest.NewFuncServer(t, m.answer)
	return m
}

func (m *evalModel) answer(req llmtest.Request) llmtest.Step {
	all := ""
	results := 0
	for _, msg := range req.Messages {
		all += msg.Content + "\n"
		if msg.Role == llm.RoleTool {
			results++
		}
	}
	if strings.HasPrefix(req.Messages[0].Content, "You grade") {
		if j := m.judge.Load(); j != nil {
			return (*j)()
		}
		score := 0.2
		if strings.Contains(all, "Criterion: good") {
			score = 0.9
		}
		return llmtest.Step{Content: fmt.Sprintf(`{"score": %g, "reason": "as scripted"}`, score)}
	}
	call := func(id, name, args string) llmtest.Step {
		return llmtest.Step{Content: "Working.", ToolCalls: []llm.ToolCall{{ID: id, Name: name, Arguments: args}}}
	}
	switch {
	case strings.Contains(all, "broken"):
		return llmtest.Step{Status: 500, Content: "the model is down"}
	case strings.Contains(all, "flaky"):
		if results == 0 {
			text := "ok"
			if m.flaky.Add(1)%3 == 0 {
				text = "bad"
			}
			return call("f1", "write_file", fmt.Sprintf(`{"path":"OUT.txt","content":%q}`, text))
		}
		return llmtest.Step{Content: "Done."}
	case strings.Contains(all, "summarise"):
		switch results {
		case 0:
			step := call("r1", "read_file", `{"path":"notes/alpha.md"}`)
			if m.starts.Add(1) > 1 {
				m.holdMu.Lock()
				if m.hold != nil {
					step.Wait = m.hold
					m.holding <- struct{}{}
				}
				m.holdMu.Unlock()
			}
			return step
		case 1:
			text := "alpha: Meeting on Friday"
			if m.fail.Load() {
				text = "alpha: nothing"
			}
			return call("w1", "write_file", fmt.Sprintf(`{"path":"SUMMARY.md","content":%q}`, text))
		}
		return llmtest.Step{Content: "Summary written to SUMMARY.md."}
	}
	return llmtest.Step{Content: "I do not know that task."}
}

// evalHome is a home whose hermes.toml runs react without routing, and a
// suite folder with the notes fixture.
func evalHome(t *testing.T, m *evalModel) (home, dir string) {
	home, dir = t.TempDir(), t.TempDir()
	toml := fmt.Sprintf("[model]\nbase_url = %q\nmax_retries = 0\n\n[agent]\nstrategy = \"react\"\nroute = false\n", m.URL)
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	notes := filepath.Join(dir, "fixtures", "notes", "notes")
	if err := os.MkdirAll(notes, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(notes, "alpha.md"), []byte("# Alpha\nMeeting on Friday.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return home, dir
}

func writeSuite(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// treeHash is a digest of every file's path and bytes under dir.
func treeHash(t *testing.T, dir string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		fmt.Fprintf(h, "%s\x00%s\x00", p, b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

type evalJSON struct {
	ID      string        `json:"id"`
	State   string        `json:"state"`
	Results []eval.Result `json:"results"`
	Cells   []eval.Cell   `json:"cells"`
}

func decodeEval(t *testing.T, out outcome) evalJSON {
	t.Helper()
	var ev evalJSON
	if err := json.Unmarshal([]byte(out.stdout), &ev); err != nil {
		t.Fatalf("stdout is not an eval: %v\n%s\n%s", err, out.stdout, out.stderr)
	}
	return ev
}

const passingChecks = `
  [[task.check]]
  file = "SUMMARY.md"
  contains = "Friday"
  [[task.check]]
  file = "SUMMARY.md"
  equals = "alpha: Meeting on Friday"
  [[task.check]]
  file = "SUMMARY.md"
  matches = '^alpha: .*Friday$'
  [[task.check]]
  file = "OTHER.md"
  absent = true
  [[task.check]]
  answer_matches = "(?i)summary"
  [[task.check]]
  tool = "read_file"
  args = { path = "/alpha\\.md$/" }
  [[task.check]]
  tool = "write_file"
  args = { path = "SUMMARY.md" }
  times = 1
  [[task.check]]
  tool = "read_file"
  at_least = 1
  at_most = 1
  [[task.check]]
  no_tool = "execute_command"
  [[task.check]]
  max_iterations = 5
  max_tokens = 100000
  no_guard = "repeat"
  [[task.check]]
  judge = "good: one line per note"
  pass_at = 0.7
`

const failingChecks = `
  [[task.check]]
  file = "SUMMARY.md"
  contains = "Monday"
  [[task.check]]
  file = "SUMMARY.md"
  equals = "something else"
  [[task.check]]
  file = "SUMMARY.md"
  matches = '^beta'
  [[task.check]]
  file = "SUMMARY.md"
  absent = true
  [[task.check]]
  answer_matches = "(?i)nothing done"
  [[task.check]]
  tool = "read_file"
  args = { path = "/beta/" }
  [[task.check]]
  tool = "write_file"
  times = 2
  [[task.check]]
  tool = "read_file"
  at_least = 2
  [[task.check]]
  tool = "read_file"
  at_most = 0
  [[task.check]]
  no_tool = "write_file"
  [[task.check]]
  max_iterations = 1
  [[task.check]]
  max_tokens = 1
  [[task.check]]
  judge = "bad: invents nothing"
  pass_at = 0.7
`

func summarySuite(checks string) string {
	return "name = \"notes\"\n[defaults]\nmax_iterations = 6\nstrategy = \"react\"\n\n[[task]]\nid = \"summary\"\ntask = \"summarise the notes into SUMMARY.md\"\nworkspace = \"fixtures/notes\"\n" + checks
}

func TestEval_EveryCheckKindPasses(t *testing.T) {
	m := newEvalModel(t)
	home, dir := evalHome(t, m)
	suite := writeSuite(t, dir, "pass.toml", summarySuite(passingChecks))
	before := treeHash(t, filepath.Join(dir, "fixtures"))
	junit := filepath.Join(t.TempDir(), "junit.xml")
	out := runHermes(t, "eval", "run", "--home", home, "--base-url", m.URL, "--json", "--junit", junit, suite)
	if out.code != cli.ExitOK {
		t.Fatalf("exit %d\n%s\n%s", out.code, out.stdout, out.stderr)
	}
	ev := decodeEval(t, out)
	if len(ev.Results) != 1 || !ev.Results[0].Pass || len(ev.Results[0].Checks) != 11 {
		t.Fatalf("results = %+v", ev.Results)
	}
	for _, c := range ev.Results[0].Checks {
		if !c.Pass {
			t.Errorf("%s failed: %s", c.Kind, c.Detail)
		}
	}
	if after := treeHash(t, filepath.Join(dir, "fixtures")); after != before {
		t.Error("the fixture changed")
	}
	// The run is an ordinary run of the home, tagged with its eval.
	runs := runHermes(t, "runs", "--home", home, "--eval", ev.ID, "--json")
	if runs.code != cli.ExitOK || !strings.Contains(runs.stdout, ev.Results[0].RunID) {
		t.Errorf("hermes runs --eval: exit %d\n%s%s", runs.code, runs.stdout, runs.stderr)
	}
	b, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	var report struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Cases []struct {
				Name    string    `xml:"name,attr"`
				Failure *struct{} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b, &report); err != nil {
		t.Fatalf("JUnit XML: %v\n%s", err, b)
	}
	if report.Tests != 1 || report.Failures != 0 || len(report.Suites) != 1 || report.Suites[0].Cases[0].Name != "summary#1" {
		t.Errorf("JUnit report = %+v", report)
	}
}

func TestEval_EveryCheckKindFails(t *testing.T) {
	m := newEvalModel(t)
	home, dir := evalHome(t, m)
	suite := writeSuite(t, dir, "fail.toml", summarySuite(failingChecks))
	junit := filepath.Join(t.TempDir(), "junit.xml")
	out := runHermes(t, "eval", "run", "--home", home, "--base-url", m.URL, "--json", "--junit", junit, suite)
	if out.code != cli.ExitFailed {
		t.Fatalf("exit %d, want %d\n%s", out.code, cli.ExitFailed, out.stderr)
	}
	ev := decodeEval(t, out)
	if len(ev.Results) != 1 || ev.Results[0].Pass || ev.Results[0].Error != "" || len(ev.Results[0].Checks) != 13 {
		t.Fatalf("results = %+v", ev.Results)
	}
	for i, c := range ev.Results[0].Checks {
		if c.Pass {
			t.Errorf("check %d (%s) passed: %s", i, c.Kind, c.Detail)
		}
	}
	b, _ := os.ReadFile(junit)
	var report struct {
		Failures int `xml:"failures,attr"`
	}
	if err := xml.Unmarshal(b, &report); err != nil || report.Failures != 1 {
		t.Errorf("JUnit: %v, %+v\n%s", err, report, b)
	}
}

func TestEval_RepeatPassAtKAndPassHatK(t *testing.T) {
	m := newEvalModel(t)
	home, dir := evalHome(t, m)
	suite := writeSuite(t, dir, "flaky.toml", `name = "flaky"
[defaults]
strategy = "react"
[[task]]
id = "flaky"
task = "flaky: write OUT.txt"
  [[task.check]]
  file = "OUT.txt"
  equals = "ok"
`)
	out := runHermes(t, "eval", "run", "--home", home, "--base-url", m.URL, "--repeat", "3", "--parallel", "3", "--json", suite)
	if out.code != cli.ExitFailed {
		t.Fatalf("exit %d, want %d\n%s", out.code, cli.ExitFailed, out.stderr)
	}
	ev := decodeEval(t, out)
	if len(ev.Cells) != 1 {
		t.Fatalf("cells = %+v", ev.Cells)
	}
	c := ev.Cells[0]
	if c.Runs != 3 || c.Passed != 2 || c.PassAtK != 1 || c.PassHatK != 0 || c.K != 3 {
		t.Errorf("cell = %+v, want 2/3, pass@3 1, pass^3 0", c)
	}
	table := runHermes(t, "eval", "show", "--home", home, ev.ID)
	if table.code != cli.ExitOK || !regexp.MustCompile(`flaky\s+default\s+2/3\s+1\.00\s+0\.00`).MatchString(table.stdout) {
		t.Errorf("eval show: exit %d\n%s%s", table.code, table.stdout, table.stderr)
	}
}

func TestEval_BaselineRegressions(t *testing.T) {
	m := newEvalModel(t)
	home, dir := evalHome(t, m)
	suite := writeSuite(t, dir, "s.toml", summarySuite(`
  [[task.check]]
  file = "SUMMARY.md"
  contains = "Friday"
`))
	base := runHermes(t, "eval", "run", "--home", home, "--base-url", m.URL, "--json", suite)
	if base.code != cli.ExitOK {
		t.Fatalf("baseline: exit %d\n%s", base.code, base.stderr)
	}
	baseID := decodeEval(t, base).ID

	same := runHermes(t, "eval", "run", "--home", home, "--base-url", m.URL, "--baseline", baseID, suite)
	if same.code != cli.ExitOK || !strings.Contains(same.stdout, "same (1/1)") {
		t.Errorf("same as the baseline: exit %d\n%s%s", same.code, same.stdout, same.stderr)
	}
	m.fail.Store(true)
	worse := runHermes(t, "eval", "run", "--home", home, "--base-url", m.URL, "--baseline", baseID, suite)
	if worse.code != cli.ExitFailed || !strings.Contains(worse.stdout, "REGRESSED (1/1)") {
		t.Errorf("regressed: exit %d\n%s%s", worse.code, worse.stdout, worse.stderr)
	}
	missing := runHermes(t, "eval", "run", "--home", home, "--base-url", m.URL, "--baseline", "ev-nope", suite)
	if missing.code != cli.ExitUsage {
		t.Errorf("an unknown baseline: exit %d\n%s", missing.code, missing.stderr)
	}
}

func TestEval_ModelErrorIsNotAFailedCheck(t *testing.T) {
	m := newEvalModel(t)
	home, dir := evalHome(t, m)
	suite := writeSuite(t, dir, "broken.toml", `name = "b"
[defaults]
strategy = "react"
[[task]]
id = "broken"
task = "broken: anything"
  [[task.check]]
  no_tool = "write_file"
`)
	out := runHermes(t, "eval", "run", "--home", home, "--base-url", m.URL, "--json", suite)
	if out.code != cli.ExitFailed {
		t.Fatalf("exit %d, want %d\n%s", out.code, cli.ExitFailed, out.stderr)
	}
	ev := decodeEval(t, out)
	if len(ev.Results) != 1 || ev.Results[0].Error == "" || len(ev.Results[0].Checks) != 0 {
		t.Fatalf("results = %+v", ev.Results)
	}
	if c := ev.Cells[0]; c.Errors != 1 || c.Runs != 0 {
		t.Errorf("cell = %+v, want one error and no checked run", c)
	}
}

func TestEval_UsageAndSuiteErrorsExit2(t *testing.T) {
	m := newEvalModel(t)
	home, dir := evalHome(t, m)
	bad := writeSuite(t, dir, "bad.toml", "name = \"x\"\n[[task]]\nid = \"a\"\ntask = \"t\"\n  [[task.check]]\n  flie = \"x\"\n")
	for _, args := range [][]string{
		{"eval", "run", "--home", home, bad},
		{"eval", "run", "--home", home},
		{"eval", "run", "--home", home, "--repeat", "0", bad},
		{"eval", "frobnicate"},
	} {
		out := runHermes(t, args...)
		if out.code != cli.ExitUsage {
			t.Errorf("%v: exit %d, want %d\n%s", args, out.code, cli.ExitUsage, out.stderr)
		}
	}
	out := runHermes(t, "eval", "run", "--home", home, bad)
	if !strings.Contains(out.stderr, bad+":6:3: unknown key task.check.flie") {
		t.Errorf("stderr does not place the mistake: %s", out.stderr)
	}
}

func TestEval_ResumeAfterCtrlC(t *testing.T) {
	m := newEvalModel(t)
	home, dir := evalHome(t, m)
	suite := writeSuite(t, dir, "s.toml", summarySuite(`
  [[task.check]]
  file = "SUMMARY.md"
  contains = "Friday"
`))
	before := treeHash(t, filepath.Join(dir, "fixtures"))
	hold := make(chan struct{})
	m.holdMu.Lock()
	m.hold = hold
	m.holdMu.Unlock()
	cmd := hermes(t, "eval", "run", "--home", home, "--base-url", m.URL, "--repeat", "3", "--parallel", "1", suite)
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 64)
	go func() {
		sc := bufio.NewScanner(errPipe)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var said strings.Builder
	waitFor := func(s string) {
		for l := range lines {
			said.WriteString(l + "\n")
			if strings.Contains(l, s) {
				return
			}
		}
		t.Fatalf("hermes never said %q:\n%s", s, said.String())
	}
	// The second run's first turn is held: one run checked, one live.
	<-m.holding
	cmd.Process.Signal(syscall.SIGINT)
	waitFor("Stopping")
	close(hold)
	for l := range lines {
		said.WriteString(l + "\n")
	}
	cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != cli.ExitStopped {
		t.Fatalf("exit %d, want %d\n%s", code, cli.ExitStopped, said.String())
	}
	id := regexp.MustCompile(`--resume (ev-\S+)`).FindStringSubmatch(said.String())
	if id == nil {
		t.Fatalf("no resume hint:\n%s", said.String())
	}
	m.holdMu.Lock()
	m.hold = nil
	m.holdMu.Unlock()
	out := runHermes(t, "eval", "run", "--home", home, "--base-url", m.URL, "--resume", id[1], "--json")
	if out.code != cli.ExitOK {
		t.Fatalf("resume: exit %d\n%s", out.code, out.stderr)
	}
	ev := decodeEval(t, out)
	if ev.State != eval.StateDone || len(ev.Results) != 3 || ev.Cells[0].Passed != 3 {
		t.Errorf("resumed eval = %+v", ev)
	}
	if !strings.Contains(out.stderr, "runs to go: 2") {
		t.Errorf("the resume did not start from where the eval stood:\n%s", out.stderr)
	}
	if treeHash(t, filepath.Join(dir, "fixtures")) != before {
		t.Error("the fixture changed")
	}
}
