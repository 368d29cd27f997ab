package eval

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
)

// CheckResult is one check of one run: whether it passed and why, in
// English (results are kept, and read in either language). A judge check
// also has its score, the score it passes at and the judge's reason, or,
// when the judge could not grade the run, Ungraded.
type CheckResult struct {
	Kind     string   `json:"kind"`
	Pass     bool     `json:"pass"`
	Detail   string   `json:"detail"`
	Score    *float64 `json:"score,omitempty"`
	PassAt   *float64 `json:"pass_at,omitempty"`
	Reason   string   `json:"reason,omitempty"`
	Ungraded bool     `json:"ungraded,omitempty"`
}

// Judge grades a run against a criterion with a model: a score from 0 to 1
// and its reason. An error is the judge's model call failing, or an answer
// without a score (ErrJudge).
type Judge func(ctx context.Context, criterion string, task Task, o Outcome) (score float64, reason string, err error)

// Evaluate runs every check of t on o. A judge that cannot grade the run
// (its model call fails, its answer holds no score) leaves its check
// Ungraded and makes err, the first such: the run is not graded, neither
// passed nor failed. The other checks are still run.
func Evaluate(ctx context.Context, t Task, o Outcome, judge Judge) ([]CheckResult, error) {
	out := make([]CheckResult, 0, len(t.Checks))
	var firstErr error
	for i := range t.Checks {
		c := &t.Checks[i]
		if c.Kind() != KindJudge {
			out = append(out, c.evaluate(o))
			continue
		}
		var (
			score  float64
			reason string
			err    = errors.New("no judge model")
		)
		if judge != nil {
			score, reason, err = judge(ctx, c.Judge, t, o)
		}
		passAt := c.passAt()
		if err != nil {
			out = append(out, CheckResult{Kind: KindJudge, PassAt: &passAt, Ungraded: true, Detail: "not graded: " + err.Error()})
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		out = append(out, CheckResult{Kind: KindJudge, Pass: score >= passAt, Score: &score, PassAt: &passAt, Reason: reason,
			Detail: fmt.Sprintf("score %.2f (pass at %.2f): %s", score, passAt, reason)})
	}
	return out, firstErr
}

// Passed reports whether every result passed.
func Passed(rs []CheckResult) bool {
	for _, r := range rs {
		if !r.Pass {
			return false
		}
	}
	return true
}

func (c *Check) evaluate(o Outcome) CheckResult {
	switch c.Kind() {
	case KindFile:
		return c.file(o)
	case KindAnswer:
		if c.answer.MatchString(o.Answer) {
			return CheckResult{Kind: KindAnswer, Pass: true, Detail: fmt.Sprintf("answer matches %s", c.AnswerMatches)}
		}
		return CheckResult{Kind: KindAnswer, Detail: fmt.Sprintf("answer does not match %s: %s", c.AnswerMatches, clip(o.Answer, 120))}
	case KindTool:
		return c.tool(o)
	case KindNoTool:
		n := 0
		for _, call := range o.Calls {
			if call.Name == c.NoTool {
				n++
			}
		}
		if n == 0 {
			return CheckResult{Kind: KindNoTool, Pass: true, Detail: fmt.Sprintf("%s not called", c.NoTool)}
		}
		return CheckResult{Kind: KindNoTool, Detail: fmt.Sprintf("%s called %d times", c.NoTool, n)}
	case KindLimits:
		return c.limits(o)
	}
	return CheckResult{Kind: "?", Detail: "no kind"}
}

func (c *Check) file(o Outcome) CheckResult {
	r := CheckResult{Kind: KindFile}
	path, ok := inside(o.Workspace, c.File)
	if !ok {
		r.Detail = fmt.Sprintf("%s is outside the workspace", c.File)
		return r
	}
	b, err := os.ReadFile(path)
	if c.Absent {
		r.Pass = errors.Is(err, os.ErrNotExist)
		r.Detail = fmt.Sprintf("%s absent", c.File)
		if !r.Pass {
			r.Detail = fmt.Sprintf("%s exists", c.File)
		}
		return r
	}
	if err != nil {
		r.Detail = fmt.Sprintf("%s: %v", c.File, errors.Unwrap(err))
		if errors.Is(err, os.ErrNotExist) {
			r.Detail = fmt.Sprintf("%s was not written", c.File)
		}
		return r
	}
	text := string(b)
	switch {
	case c.Contains != nil:
		r.Pass = strings.Contains(text, *c.Contains)
		r.Detail = fmt.Sprintf("%s contains %q", c.File, *c.Contains)
		if !r.Pass {
			r.Detail = fmt.Sprintf("%s lacks %q: %s", c.File, *c.Contains, clip(text, 120))
		}
	case c.Equals != nil:
		r.Pass = strings.TrimRight(text, "\n") == strings.TrimRight(*c.Equals, "\n")
		r.Detail = fmt.Sprintf("%s equals the text given", c.File)
		if !r.Pass {
			r.Detail = fmt.Sprintf("%s differs: %s", c.File, clip(text, 120))
		}
	default:
		r.Pass = c.matches.MatchString(text)
		r.Detail = fmt.Sprintf("%s matches %s", c.File, c.Matches)
		if !r.Pass {
			r.Detail = fmt.Sprintf("%s does not match %s: %s", c.File, c.Matches, clip(text, 120))
		}
	}
	return r
}

// inside joins a check's path (slash-separated, relative) to the workspace,
// refusing one that climbs out of it.
func inside(ws, rel string) (string, bool) {
	p := filepath.Join(ws, filepath.FromSlash(rel))
	r, err := filepath.Rel(ws, p)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return p, true
}

func (c *Check) tool(o Outcome) CheckResult {
	n := 0
	for _, call := range o.Calls {
		if call.Name == c.Tool && c.argsMatch(call.Args) {
			n++
		}
	}
	what := c.Tool
	if len(c.Args) > 0 {
		what = fmt.Sprintf("%s with %s", c.Tool, formatArgs(c.Args))
	}
	r := CheckResult{Kind: KindTool, Pass: true}
	switch {
	case c.Times != nil && n != *c.Times:
		r.Pass, r.Detail = false, fmt.Sprintf("%s called %d times, want %d", what, n, *c.Times)
	case c.AtLeast != nil && n < *c.AtLeast:
		r.Pass, r.Detail = false, fmt.Sprintf("%s called %d times, want at least %d", what, n, *c.AtLeast)
	case c.AtMost != nil && n > *c.AtMost:
		r.Pass, r.Detail = false, fmt.Sprintf("%s called %d times, want at most %d", what, n, *c.AtMost)
	case c.Times == nil && c.AtLeast == nil && c.AtMost == nil && n == 0:
		r.Pass, r.Detail = false, fmt.Sprintf("%s not called", what)
	default:
		r.Detail = fmt.Sprintf("%s called %d times", what, n)
	}
	return r
}

func formatArgs(args map[string]any) string {
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%v", k, args[k])
	}
	return strings.Join(parts, ", ")
}

// argsMatch is the subset match: every argument the check names is in got
// and matches.
func (c *Check) argsMatch(got map[string]any) bool {
	for k, m := range c.args {
		v, ok := got[k]
		if !ok || !m.match(v) {
			return false
		}
	}
	return true
}

// argMatcher matches one argument: a /regex/ string matches a string
// value (or a number or boolean written as one), any other value equals
// it (numbers compared as numbers, tables as subsets).
type argMatcher struct {
	re   *regexp.Regexp
	want any
}

func newArgMatcher(v any) (argMatcher, error) {
	if s, ok := v.(string); ok && len(s) >= 2 && strings.HasPrefix(s, "/") && strings.HasSuffix(s, "/") {
		re, err := regexp.Compile(s[1 : len(s)-1])
		return argMatcher{re: re}, err
	}
	return argMatcher{want: v}, nil
}

func (m argMatcher) match(got any) bool {
	if m.re != nil {
		switch g := got.(type) {
		case string:
			return m.re.MatchString(g)
		case float64, bool:
			return m.re.MatchString(fmt.Sprint(g))
		}
		return false
	}
	return sameValue(m.want, got)
}

// sameValue compares a value from TOML with one decoded from JSON.
func sameValue(want, got any) bool {
	switch w := want.(type) {
	case int64:
		g, ok := got.(float64)
		return ok && g == float64(w)
	case float64:
		g, ok := got.(float64)
		return ok && g == w
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return false
		}
		for k, v := range w {
			if !sameValue(v, g[k]) {
				return false
			}
		}
		return true
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !sameValue(w[i], g[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(want, got)
}

func (c *Check) limits(o Outcome) CheckResult {
	r := CheckResult{Kind: KindLimits, Pass: true}
	var ok []string
	fail := func(msg string) {
		if r.Pass {
			r.Pass, r.Detail = false, msg
		}
	}
	if c.MaxIterations > 0 {
		if o.Iterations > c.MaxIterations {
			fail(fmt.Sprintf("%d iterations, want at most %d", o.Iterations, c.MaxIterations))
		}
		ok = append(ok, fmt.Sprintf("%d iterations", o.Iterations))
	}
	if c.MaxTokens > 0 {
		if o.Tokens > c.MaxTokens {
			fail(fmt.Sprintf("%d tokens, want at most %d", o.Tokens, c.MaxTokens))
		}
		ok = append(ok, fmt.Sprintf("%d tokens", o.Tokens))
	}
	if c.MaxCost != nil {
		switch {
		case o.Cost == nil:
			fail(fmt.Sprintf("the run's model has no price; max_cost %g cannot be checked: add its price under [prices] in hermes.toml", *c.MaxCost))
		case *o.Cost > *c.MaxCost:
			fail(fmt.Sprintf("cost %.4f, want at most %g", *o.Cost, *c.MaxCost))
		default:
			ok = append(ok, fmt.Sprintf("cost %.4f", *o.Cost))
		}
	}
	if c.NoGuard != "" {
		if slices.Contains(o.Guards, c.NoGuard) || (c.NoGuard == "repeat" && slices.Contains(o.Guards, "repeated_call")) {
			fail(fmt.Sprintf("guard %s tripped", c.NoGuard))
		}
		ok = append(ok, fmt.Sprintf("no %s guard", c.NoGuard))
	}
	if r.Pass {
		r.Detail = strings.Join(ok, ", ")
	}
	return r
}

func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
