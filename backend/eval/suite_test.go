package eval_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/eval"
)

func TestParse_Interface(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"fixtures/notes", "fixtures/vault"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	src := `name = "notes"
[defaults]
max_iterations = 10
strategy = "plan"

[[task]]
id = "summary"
task = "Summarise every note in notes/ into SUMMARY.md, one line each"
workspace = "fixtures/notes"
vault = "fixtures/vault"

  [[task.check]]
  file = "SUMMARY.md"
  contains = "Friday"
  [[task.check]]
  answer_matches = "(?i)summary"
  [[task.check]]
  tool = "read_file"
  args = { path = "notes/alpha.md" }
  [[task.check]]
  no_tool = "execute_command"
  [[task.check]]
  max_iterations = 5
  [[task.check]]
  judge = "The summary has one line per note and invents nothing."
  pass_at = 0.7

[[variant]]
name = "cold"
temperature = 0.0
`
	s, err := eval.Parse(filepath.Join(dir, "suite.toml"), src)
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "notes" || s.Defaults.MaxIterations != 10 || len(s.Tasks) != 1 || len(s.Tasks[0].Checks) != 6 || len(s.Variants) != 1 {
		t.Fatalf("suite = %+v", s)
	}
	kinds := []string{eval.KindFile, eval.KindAnswer, eval.KindTool, eval.KindNoTool, eval.KindLimits, eval.KindJudge}
	for i, c := range s.Tasks[0].Checks {
		if c.Kind() != kinds[i] {
			t.Errorf("check %d is %q, want %q", i, c.Kind(), kinds[i])
		}
	}
}

func TestParse_ErrorsPlaced(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "ws"), 0o755); err != nil {
		t.Fatal(err)
	}
	head := "name = \"x\"\n[[task]]\nid = \"a\"\ntask = \"do\"\n"
	for _, tc := range []struct {
		name, src  string
		line, col  int
		msgHolding string
	}{
		{"syntax", "name = \"x\n", 1, 10, "newline"},
		{"unknown key", head + "  [[task.check]]\n  flie = \"a\"\n", 6, 3, "flie"},
		{"two kinds", head + "  [[task.check]]\n  file = \"a\"\n  no_tool = \"b\"\n", 5, 3, "exactly one"},
		{"file without what", head + "  [[task.check]]\n  file = \"a\"\n", 6, 3, "contains"},
		{"bad regexp", head + "  [[task.check]]\n  answer_matches = \"(\"\n", 6, 3, "regular expression"},
		{"bad args regexp", head + "  [[task.check]]\n  tool = \"t\"\n  args = { path = \"/(/\" }\n", 7, 12, "regular expression"},
		{"no fixture", head + "workspace = \"missing\"\n  [[task.check]]\n  no_tool = \"x\"\n", 5, 1, "missing"},
		{"no checks", head, 3, 1, "no [[task.check]]"},
		{"dup id", head + "  [[task.check]]\n  no_tool = \"x\"\n[[task]]\nid = \"a\"\ntask = \"b\"\n", 8, 1, "twice"},
		{"bad memory", "memory = \"on\"\n" + head, 1, 1, "memory"},
		{"pass_at", head + "  [[task.check]]\n  judge = \"j\"\n  pass_at = 2.0\n", 7, 3, "pass_at"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := eval.Parse(filepath.Join(dir, "s.toml"), tc.src)
			var se *eval.SuiteError
			if !errors.As(err, &se) || !errors.Is(err, eval.ErrSuite) {
				t.Fatalf("err = %v", err)
			}
			if se.Line != tc.line || se.Column != tc.col || !strings.Contains(se.Msg, tc.msgHolding) {
				t.Errorf("got %d:%d %q, want %d:%d holding %q", se.Line, se.Column, se.Msg, tc.line, tc.col, tc.msgHolding)
			}
			if !strings.HasPrefix(err.Error(), filepath.Join(dir, "s.toml")+":") {
				t.Errorf("error %q does not name the file", err)
			}
		})
	}
}
