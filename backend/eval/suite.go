// Package eval runs suites of tasks, each run an ordinary run of the home,
// checks what each run did (files, answer, tools called, limits, a model's
// judgement), and keeps the results in hermes.db, so that a change of model
// or instructions is measured against the runs before it (docs/evals.md).
package eval

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/BurntSushi/toml"

	"hermes/backend/i18n"
)

// Suite is a suite file: tasks, the checks each run of a task must pass,
// and the variants (models, endpoints, strategies) every task runs under.
type Suite struct {
	Name string `toml:"name"`
	// Memory is what runs do with long-term memory: "" or "off" neither
	// recall nor write, so that one run's answer never leaks into the
	// next; "read" recalls what was kept before.
	Memory string `toml:"memory"`
	// Approvals answers what a run asks a person: "allow" (the default)
	// allows a call once, as hermes run --yes does (the workspace is a
	// copy), "deny" refuses it.
	Approvals string    `toml:"approvals"`
	Defaults  Defaults  `toml:"defaults"`
	Tasks     []Task    `toml:"task"`
	Variants  []Variant `toml:"variant"`

	// Path is the suite file, absolute; Dir is its folder, which fixtures
	// are relative to.
	Path string `toml:"-"`
	Dir  string `toml:"-"`
}

// Defaults apply to every task that does not set its own.
type Defaults struct {
	MaxIterations int      `toml:"max_iterations"`
	Strategy      string   `toml:"strategy"`
	Instructions  string   `toml:"instructions"`
	Temperature   *float64 `toml:"temperature"`
}

// Task is one case: what a run is asked, the files it starts with, and the
// checks every run of it must pass.
type Task struct {
	ID            string `toml:"id"`
	Task          string `toml:"task"`
	Workspace     string `toml:"workspace"`
	Vault         string `toml:"vault"`
	Instructions  string `toml:"instructions"`
	Strategy      string `toml:"strategy"`
	MaxIterations int    `toml:"max_iterations"`
	// Answer is what a person answers the run's questions with (the
	// ask_user tool, a guessed value); "" leaves them unanswered, which
	// tells the model that no one can answer.
	Answer string  `toml:"answer"`
	Checks []Check `toml:"check"`
}

// Variant is one way every task is run: a model, an endpoint, a strategy,
// a temperature, instructions added to the task's. Unset fields are the
// configuration's.
type Variant struct {
	Name         string   `toml:"name"`
	Model        string   `toml:"model"`
	BaseURL      string   `toml:"base_url"`
	Strategy     string   `toml:"strategy"`
	Temperature  *float64 `toml:"temperature"`
	Instructions string   `toml:"instructions"`
}

// Label is how tables and results name v.
func (v Variant) Label() string {
	switch {
	case v.Name != "":
		return v.Name
	case v.Model != "":
		return v.Model
	}
	return "default"
}

// Check is one thing a run must have done. Exactly one kind is set: a file
// (with contains, equals, matches or absent), answer_matches, tool (with
// args, times, at_least, at_most), no_tool, limits (max_iterations,
// max_tokens, max_cost, no_guard, together or alone), or judge (with
// pass_at).
type Check struct {
	File     string  `toml:"file"`
	Contains *string `toml:"contains"`
	Equals   *string `toml:"equals"`
	Matches  string  `toml:"matches"`
	Absent   bool    `toml:"absent"`

	AnswerMatches string `toml:"answer_matches"`

	Tool    string         `toml:"tool"`
	Args    map[string]any `toml:"args"`
	Times   *int           `toml:"times"`
	AtLeast *int           `toml:"at_least"`
	AtMost  *int           `toml:"at_most"`

	NoTool string `toml:"no_tool"`

	MaxIterations int      `toml:"max_iterations"`
	MaxTokens     int      `toml:"max_tokens"`
	MaxCost       *float64 `toml:"max_cost"`
	NoGuard       string   `toml:"no_guard"`

	Judge  string   `toml:"judge"`
	PassAt *float64 `toml:"pass_at"`

	matches, answer *regexp.Regexp
	args            map[string]argMatcher
}

// The kinds of check, as results name them.
const (
	KindFile   = "file"
	KindAnswer = "answer"
	KindTool   = "tool"
	KindNoTool = "no_tool"
	KindLimits = "limits"
	KindJudge  = "judge"
)

// Kind is the check's kind ("" when it has none or several, which Load
// refuses).
func (c *Check) Kind() string {
	var kinds []string
	if c.File != "" {
		kinds = append(kinds, KindFile)
	}
	if c.AnswerMatches != "" {
		kinds = append(kinds, KindAnswer)
	}
	if c.Tool != "" {
		kinds = append(kinds, KindTool)
	}
	if c.NoTool != "" {
		kinds = append(kinds, KindNoTool)
	}
	if c.MaxIterations > 0 || c.MaxTokens > 0 || c.MaxCost != nil || c.NoGuard != "" {
		kinds = append(kinds, KindLimits)
	}
	if c.Judge != "" {
		kinds = append(kinds, KindJudge)
	}
	if len(kinds) != 1 {
		return ""
	}
	return kinds[0]
}

// defaultPassAt is the least score a judge check passes with when the
// suite names none.
const defaultPassAt = 0.5

// maxSuiteSize bounds the suite file read whole.
const maxSuiteSize = 4 << 20

// SuiteError is a mistake in a suite file, and where it is (Line 0: the
// file as a whole).
type SuiteError struct {
	Path         string
	Line, Column int
	Msg          string
}

func (e *SuiteError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %s", e.Path, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Column, e.Msg)
}

func (e *SuiteError) Unwrap() error { return ErrSuite }

// Load reads and checks the suite at path: TOML syntax, unknown keys, each
// task's id, text and fixtures, each check's kind and patterns. A mistake
// is a *SuiteError with its line and column.
func Load(path string) (*Suite, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, &SuiteError{Path: path, Msg: err.Error()}
	}
	info, err := os.Stat(abs)
	if err != nil {
		return nil, &SuiteError{Path: path, Msg: i18n.T("eval.suite_unreadable", err)}
	}
	if info.Size() > maxSuiteSize {
		return nil, &SuiteError{Path: path, Msg: i18n.T("eval.suite_too_large", maxSuiteSize>>20)}
	}
	b, err := os.ReadFile(abs)
	if err != nil {
		return nil, &SuiteError{Path: path, Msg: i18n.T("eval.suite_unreadable", err)}
	}
	return Parse(path, string(b))
}

// Parse is Load of the text src of the file at path.
func Parse(path, src string) (*Suite, error) { return parse(path, src, true) }

// parse is Parse; fixtures says whether each task's fixture folders must
// be there (a worker has those of its run's task only).
func parse(path, src string, fixtures bool) (*Suite, error) {
	abs, _ := filepath.Abs(path)
	s := &Suite{Path: abs, Dir: filepath.Dir(abs)}
	if !utf8.ValidString(src) {
		return nil, &SuiteError{Path: path, Msg: i18n.T("eval.suite_not_utf8")}
	}
	md, err := toml.Decode(src, s)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, &SuiteError{Path: path, Line: pe.Position.Line, Column: max(pe.Position.Col, 1), Msg: pe.Message}
		}
		return nil, &SuiteError{Path: path, Msg: err.Error()}
	}
	p := newPlaces(src)
	if und := md.Undecoded(); len(und) > 0 {
		k := und[0]
		line, col := p.key(k)
		return nil, &SuiteError{Path: path, Line: line, Column: col, Msg: i18n.T("eval.unknown_key", k.String())}
	}
	if err := s.check(p, fixtures); err != nil {
		err.Path = path
		return nil, err
	}
	return s, nil
}

// check finds the suite's mistakes that TOML does not, the first one placed.
func (s *Suite) check(p *places, fixtures bool) *SuiteError {
	at := func(line int, key, msg string) *SuiteError {
		l, c := p.within(line, key)
		return &SuiteError{Line: l, Column: c, Msg: msg}
	}
	switch s.Memory {
	case "", "off", "read":
	default:
		return at(1, "memory", i18n.T("eval.bad_memory", s.Memory))
	}
	switch s.Approvals {
	case "", "allow", "deny":
	default:
		return at(1, "approvals", i18n.T("eval.bad_approvals", s.Approvals))
	}
	for _, st := range []string{s.Defaults.Strategy} {
		if err := checkStrategy(st); err != "" {
			return at(p.header("defaults", 0, -1), "strategy", err)
		}
	}
	if len(s.Tasks) == 0 {
		return &SuiteError{Line: 1, Column: 1, Msg: i18n.T("eval.no_tasks")}
	}
	seen := map[string]bool{}
	for i := range s.Tasks {
		t := &s.Tasks[i]
		line := p.header("task", i, -1)
		switch {
		case strings.TrimSpace(t.ID) == "":
			return at(line, "id", i18n.T("eval.no_task_id"))
		case seen[t.ID]:
			return at(line, "id", i18n.T("eval.dup_task_id", t.ID))
		case strings.TrimSpace(t.Task) == "":
			return at(line, "task", i18n.T("eval.no_task_text", t.ID))
		}
		seen[t.ID] = true
		if err := checkStrategy(t.Strategy); err != "" {
			return at(line, "strategy", err)
		}
		for _, f := range []struct{ key, dir string }{{"workspace", t.Workspace}, {"vault", t.Vault}} {
			if f.dir == "" || !fixtures {
				continue
			}
			if info, err := os.Stat(s.fixture(f.dir)); err != nil || !info.IsDir() {
				return at(line, f.key, i18n.T("eval.no_fixture", f.dir, s.fixture(f.dir)))
			}
		}
		if len(t.Checks) == 0 {
			return at(line, "id", i18n.T("eval.no_checks", t.ID))
		}
		for j := range t.Checks {
			if err := t.Checks[j].prepare(); err != nil {
				return at(p.header("task.check", i, j), err.key, err.msg)
			}
		}
	}
	names := map[string]bool{}
	for i, v := range s.Variants {
		line := p.header("variant", i, -1)
		if names[v.Label()] {
			return at(line, "name", i18n.T("eval.dup_variant", v.Label()))
		}
		names[v.Label()] = true
		if err := checkStrategy(v.Strategy); err != "" {
			return at(line, "strategy", err)
		}
	}
	return nil
}

func checkStrategy(s string) string {
	switch s {
	case "", "plan", "react":
		return ""
	}
	return i18n.T("eval.bad_strategy", s)
}

// fixture is a fixture folder named in the suite, relative to the suite's
// folder unless absolute.
func (s *Suite) fixture(dir string) string {
	if filepath.IsAbs(dir) {
		return dir
	}
	return filepath.Join(s.Dir, filepath.FromSlash(dir))
}

type checkError struct{ key, msg string }

// prepare checks c and compiles its patterns.
func (c *Check) prepare() *checkError {
	kind := c.Kind()
	if kind == "" {
		return &checkError{"", i18n.T("eval.check_kind")}
	}
	var err error
	switch kind {
	case KindFile:
		n := 0
		for _, set := range []bool{c.Contains != nil, c.Equals != nil, c.Matches != "", c.Absent} {
			if set {
				n++
			}
		}
		if n != 1 {
			return &checkError{"file", i18n.T("eval.file_check")}
		}
		if c.Matches != "" {
			if c.matches, err = regexp.Compile(c.Matches); err != nil {
				return &checkError{"matches", i18n.T("eval.bad_regexp", err)}
			}
		}
	case KindAnswer:
		if c.answer, err = regexp.Compile(c.AnswerMatches); err != nil {
			return &checkError{"answer_matches", i18n.T("eval.bad_regexp", err)}
		}
	case KindTool:
		c.args = map[string]argMatcher{}
		for k, v := range c.Args {
			m, err := newArgMatcher(v)
			if err != nil {
				return &checkError{k, i18n.T("eval.bad_regexp", err)}
			}
			c.args[k] = m
		}
		for key, n := range map[string]*int{"times": c.Times, "at_least": c.AtLeast, "at_most": c.AtMost} {
			if n != nil && *n < 0 {
				return &checkError{key, i18n.T("eval.negative", key)}
			}
		}
	case KindJudge:
		if c.PassAt != nil && (*c.PassAt < 0 || *c.PassAt > 1) {
			return &checkError{"pass_at", i18n.T("eval.bad_pass_at", *c.PassAt)}
		}
	}
	if kind != KindFile && (c.Contains != nil || c.Equals != nil || c.Matches != "" || c.Absent) {
		return &checkError{"", i18n.T("eval.check_kind")}
	}
	return nil
}

// passAt is the least score a judge check passes with.
func (c *Check) passAt() float64 {
	if c.PassAt != nil {
		return *c.PassAt
	}
	return defaultPassAt
}

// places finds where tables and keys are written in a suite's text, for
// mistakes that TOML's parser does not report: the nth [[task]] header,
// the mth [[task.check]] under it, a key between a header and the next.
type places struct {
	lines []string
}

func newPlaces(src string) *places {
	return &places{lines: strings.Split(src, "\n")}
}

// header is the line (from 1) of the ith [[name]] (or [name] when i is 0
// and it is not an array), or, for "task.check", of the jth check of the
// ith task; 1 when it is not found.
func (p *places) header(name string, i, j int) int {
	task, check, n := -1, -1, -1
	for at, l := range p.lines {
		h := strings.TrimSpace(l)
		if !strings.HasPrefix(h, "[") {
			continue
		}
		h = strings.Trim(strings.SplitN(h, "#", 2)[0], " \t[]")
		switch h {
		case "task":
			task++
			check = -1
		case "task.check":
			check++
		}
		if h != name {
			continue
		}
		switch name {
		case "task.check":
			if task == i && check == j {
				return at + 1
			}
		default:
			if n++; n == i {
				return at + 1
			}
		}
	}
	return 1
}

// within is where key is set in the table that starts at line (the first
// key at the start of a line or in an inline table, before the next
// header); the header's own place when it is not found.
func (p *places) within(line int, key string) (int, int) {
	if key != "" {
		re := regexp.MustCompile(`(^|[\s{,])` + regexp.QuoteMeta(key) + `\s*=`)
		for at := line - 1; at < len(p.lines); at++ {
			l := p.lines[at]
			if at > line-1 && strings.HasPrefix(strings.TrimSpace(l), "[") {
				break
			}
			if loc := re.FindStringIndex(l); loc != nil {
				return at + 1, column(l, loc[0])
			}
		}
	}
	l := ""
	if line-1 < len(p.lines) {
		l = p.lines[line-1]
	}
	return line, len(l) - len(strings.TrimLeft(l, " \t")) + 1
}

// key is where an unknown key is written: its last part set on a line, or
// a table of that name.
func (p *places) key(k toml.Key) (int, int) {
	last := k[len(k)-1]
	re := regexp.MustCompile(`(^|[\s{,])` + regexp.QuoteMeta(last) + `\s*=|^\s*\[+\s*` + regexp.QuoteMeta(k.String()) + `\s*\]`)
	for at, l := range p.lines {
		if loc := re.FindStringIndex(l); loc != nil {
			return at + 1, column(l, loc[0])
		}
	}
	return 1, 1
}

// column is the column (in characters, from 1) of what starts at byte i of
// line l, past the blanks and delimiters a match took in front of it.
func column(l string, i int) int {
	for i < len(l) && strings.IndexByte(" \t{,", l[i]) >= 0 {
		i++
	}
	return utf8.RuneCountInString(l[:i]) + 1
}
