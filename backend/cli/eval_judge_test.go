package cli_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"hermes/backend/cli"
	"hermes/backend/eval"
	"hermes/backend/llm/llmtest"
)

// judgeSuite is the summary task with a file check and a judge check.
var judgeSuite = summarySuite(`
  [[task.check]]
  file = "SUMMARY.md"
  contains = "Friday"
  [[task.check]]
  judge = "The summary has one line per note and invents nothing."
  pass_at = 0.7
`)

// judgeAnswers makes the scripted judge answer reply.
func judgeAnswers(m *evalModel, reply string) {
	f := func() llmtest.Step { return llmtest.Step{Content: reply} }
	m.judge.Store(&f)
}

// judgeCheck is the judge's check of the eval's only result.
func judgeCheck(t *testing.T, ev evalJSON) (eval.Result, eval.CheckResult) {
	t.Helper()
	if len(ev.Results) != 1 {
		t.Fatalf("results = %+v", ev.Results)
	}
	r := ev.Results[0]
	for _, c := range r.Checks {
		if c.Kind == eval.KindJudge {
			return r, c
		}
	}
	t.Fatalf("no judge check in %+v", r)
	return r, eval.CheckResult{}
}

// showIn runs hermes eval show ID in lang.
func showIn(t *testing.T, lang, home, id string) string {
	t.Helper()
	cmd := hermes(t, "eval", "show", "--home", home, id)
	cmd.Env = append(cmd.Env, "HERMES_LANG="+lang)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("eval show in %s: %v\n%s", lang, err, errOut.String())
	}
	return out.String()
}

// TestEval_JudgeGradesThroughTheModel: the judge's model grades the run
// with a score and a reason, which hermes eval show prints, in English and
// in Chinese, and gives in its JSON apart from the rest of the check.
func TestEval_JudgeGradesThroughTheModel(t *testing.T) {
	m := newEvalModel(t)
	home, dir := evalHome(t, m)
	judgeAnswers(m, "Here is my grade:\n```json\n{\"score\": 0.85, \"reason\": \"One line for the one note, and nothing invented.\"}\n```")
	suite := writeSuite(t, dir, "judge.toml", judgeSuite)
	out := runHermes(t, "eval", "run", "--home", home, "--base-url", m.URL, "--json", suite)
	if out.code != cli.ExitOK {
		t.Fatalf("exit %d\n%s\n%s", out.code, out.stdout, out.stderr)
	}
	id := decodeEval(t, out).ID

	show := runHermes(t, "eval", "show", "--home", home, "--json", id)
	if show.code != cli.ExitOK {
		t.Fatalf("eval show --json: exit %d\n%s", show.code, show.stderr)
	}
	r, c := judgeCheck(t, decodeEval(t, show))
	if !r.Pass || r.Ungraded || !c.Pass || c.Score == nil || *c.Score != 0.85 || c.PassAt == nil || *c.PassAt != 0.7 ||
		c.Reason != "One line for the one note, and nothing invented." {
		t.Errorf("the judge's check = %+v (score %v, pass at %v) of %+v", c, c.Score, c.PassAt, r)
	}
	// The judge was asked about this run: the task, its answer, its files.
	var asked string
	for _, req := range m.Requests() {
		if strings.HasPrefix(req.Messages[0].Content, "You grade") {
			asked = req.Messages[1].Content
		}
	}
	for _, want := range []string{"Criterion: The summary has one line per note", "Task: summarise the notes", "--- SUMMARY.md", "alpha: Meeting on Friday"} {
		if !strings.Contains(asked, want) {
			t.Errorf("the judge was not shown %q:\n%s", want, asked)
		}
	}

	en := showIn(t, "en", home, id)
	if !strings.Contains(en, "summary · default #1  run "+r.RunID) ||
		!strings.Contains(en, "pass judge: score 0.85 (passes at 0.70): One line for the one note, and nothing invented.") {
		t.Errorf("eval show does not give the judge's reason:\n%s", en)
	}
	zh := showIn(t, "zh-CN", home, id)
	if !strings.Contains(zh, "通过 评判：得分 0.85（0.70 通过）：One line for the one note, and nothing invented.") {
		t.Errorf("eval show in Chinese does not give the judge's reason:\n%s", zh)
	}
}

// TestEval_JudgeWithoutAScoreIsNotGraded: a judge that answers prose, or a
// score that is not a number, leaves the run not graded (neither passed
// nor failed) and says what to do next; the other checks still ran.
func TestEval_JudgeWithoutAScoreIsNotGraded(t *testing.T) {
	for name, reply := range map[string]string{
		"prose":        "The summary looks fine to me.",
		"no number":    `{"score": "high", "reason": "fine"}`,
		"score absent": `{"reason": "fine"}`,
	} {
		t.Run(name, func(t *testing.T) {
			m := newEvalModel(t)
			home, dir := evalHome(t, m)
			judgeAnswers(m, reply)
			suite := writeSuite(t, dir, "judge.toml", judgeSuite)
			junit := filepath.Join(dir, "junit.xml")
			out := runHermes(t, "eval", "run", "--home", home, "--base-url", m.URL, "--json", "--junit", junit, suite)
			if out.code != cli.ExitFailed {
				t.Fatalf("exit %d, want %d\n%s\n%s", out.code, cli.ExitFailed, out.stdout, out.stderr)
			}
			ev := decodeEval(t, out)
			r, c := judgeCheck(t, ev)
			if r.Pass || !r.Ungraded || !c.Ungraded || c.Pass || c.Score != nil {
				t.Errorf("result = %+v, judge = %+v; want not graded", r, c)
			}
			if !r.Checks[0].Pass {
				t.Errorf("the file check did not run: %+v", r.Checks[0])
			}
			for _, want := range []string{"the judge's answer holds no score", `{"score": 0 to 1, "reason": "..."}`, "[eval] judge_model", "hermes eval run --resume " + ev.ID} {
				if !strings.Contains(r.Error, want) {
					t.Errorf("the error does not say %q: %s", want, r.Error)
				}
			}
			// Counted apart: neither among the runs checked nor the errors.
			if cell := ev.Cells[0]; cell.Ungraded != 1 || cell.Errors != 0 || cell.Runs != 0 || cell.Passed != 0 {
				t.Errorf("cell = %+v, want one not graded, no error and none passed", cell)
			}
			if report, err := os.ReadFile(junit); err != nil || !strings.Contains(string(report), `skipped="1"`) ||
				!strings.Contains(string(report), "<skipped message=\"the judge") || strings.Contains(string(report), "<error") {
				t.Errorf("the JUnit report does not skip the run not graded: %v\n%s", err, report)
			}
			var listed []struct {
				ID                               string
				Passed, Failed, Ungraded, Errors int
			}
			list := runHermes(t, "eval", "list", "--home", home, "--json")
			if err := json.Unmarshal([]byte(list.stdout), &listed); err != nil || len(listed) != 1 ||
				listed[0].Ungraded != 1 || listed[0].Errors != 0 || listed[0].Passed+listed[0].Failed != 0 {
				t.Errorf("eval list: %+v, %v\n%s", listed, err, list.stdout)
			}
			if !strings.Contains(out.stderr, "NOT GRADED summary · default #1") {
				t.Errorf("the progress does not say it was not graded:\n%s", out.stderr)
			}
			en := showIn(t, "en", home, ev.ID)
			if !strings.Contains(en, "NOT GRADED "+r.Error) || !regexp.MustCompile(`(?m)^summary +default +0/0 .* 1 +0$`).MatchString(en) {
				t.Errorf("eval show:\n%s", en)
			}
			// What to do next, in the reader's language.
			if zh := showIn(t, "zh-CN", home, ev.ID); !strings.Contains(zh, "未评分 ") || !strings.Contains(zh, "评判模型的回答中没有分数：") ||
				!strings.Contains(zh, "请把 [eval] judge_model 设为能遵循指令的模型，再用 hermes eval run --resume "+ev.ID+" 重新评分") {
				t.Errorf("eval show in Chinese:\n%s", zh)
			}
		})
	}
}

// TestEval_JudgeThatNeverAnswers: a judge that never answers is given up
// after [model] timeout; the run is not graded, the error names the wait
// and the resume, and the resume grades it once the judge answers.
func TestEval_JudgeThatNeverAnswers(t *testing.T) {
	m := newEvalModel(t)
	home, dir := evalHome(t, m)
	cfg := fmt.Sprintf("[model]\nbase_url = %q\nmax_retries = 0\ntimeout = \"300ms\"\n\n[agent]\nstrategy = \"react\"\nroute = false\n", m.URL)
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	silent := make(chan struct{}) // never closed: the server's Close releases it
	f := func() llmtest.Step { return llmtest.Step{Wait: silent} }
	m.judge.Store(&f)
	suite := writeSuite(t, dir, "judge.toml", judgeSuite)
	out := runHermes(t, "eval", "run", "--home", home, "--base-url", m.URL, "--json", suite)
	if out.code != cli.ExitFailed {
		t.Fatalf("exit %d, want %d\n%s\n%s", out.code, cli.ExitFailed, out.stdout, out.stderr)
	}
	ev := decodeEval(t, out)
	r, c := judgeCheck(t, ev)
	if r.Pass || !r.Ungraded || !c.Ungraded {
		t.Errorf("result = %+v; want not graded", r)
	}
	for _, want := range []string{"the judge's model call failed", "no answer within 300ms", "[model] timeout", "hermes eval run --resume " + ev.ID} {
		if !strings.Contains(r.Error, want) {
			t.Errorf("the error does not say %q: %s", want, r.Error)
		}
	}

	judgeAnswers(m, `{"score": 1, "reason": "Nothing invented."}`)
	again := runHermes(t, "eval", "run", "--home", home, "--base-url", m.URL, "--resume", ev.ID, "--json")
	if again.code != cli.ExitOK {
		t.Fatalf("resume: exit %d\n%s\n%s", again.code, again.stdout, again.stderr)
	}
	r, c = judgeCheck(t, decodeEval(t, again))
	if !r.Pass || r.Ungraded || r.Error != "" || c.Reason != "Nothing invented." {
		t.Errorf("after the resume: %+v", r)
	}
	var shown struct {
		Results []json.RawMessage `json:"results"`
	}
	show := runHermes(t, "eval", "show", "--home", home, "--json", ev.ID)
	if err := json.Unmarshal([]byte(show.stdout), &shown); err != nil || len(shown.Results) != 1 || strings.Contains(string(shown.Results[0]), "ungraded") {
		t.Errorf("eval show keeps the ungraded result: %v\n%s", err, show.stdout)
	}
}
