package eval

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"hermes/backend/event"
	"hermes/backend/runlog"
)

// Case is a test case proposed from a run: its task, the files it read as
// they were before the run, and checks from what it did, for a person to
// edit before the suite runs it.
type Case struct {
	Task  Task
	Files map[string]string // path in the workspace → content before the run
	// Notes say, one a line, what the proposal could not take from the run.
	Notes []string
}

// readTools are the tools whose path argument a run read, and which wrote.
var (
	readTools  = []string{"read_file"}
	writeTools = []string{"write_file", "edit_file"}
)

// CaseFrom proposes a test case from the events of a run of home: the
// files it read before writing them (their whole text, from the tool's
// result or, when that was cut for the model, from the run's artifact),
// and checks that the files it wrote hold what they hold now in its
// workspace, that it called the tools it called, and that its answer says
// what it said.
func CaseFrom(home string, events []event.Event) (Case, error) {
	s := runlog.Summarize(events)
	if s.RunID == "" {
		return Case{}, ErrNoRun
	}
	c := Case{Files: map[string]string{}}
	c.Task = Task{ID: caseID(s.Task, s.RunID), Task: s.Task, Workspace: ""}
	written := map[string]bool{}
	paths := map[string]string{} // call id → path
	names := map[string]string{}
	var tools []string
	var wrote []string
	for _, e := range events {
		switch e.Type {
		case event.ToolStarted:
			d, err := event.Decode[event.ToolStartedData](e)
			if err != nil {
				continue
			}
			names[d.CallID] = d.Name
			if !slices.Contains(tools, d.Name) {
				tools = append(tools, d.Name)
			}
			o := OutcomeOf([]event.Event{e}, "")
			if len(o.Calls) == 1 {
				if p, ok := o.Calls[0].Args["path"].(string); ok {
					paths[d.CallID] = filepath.ToSlash(filepath.Clean(p))
				}
			}
		case event.ToolFinished:
			d, err := event.Decode[event.ToolFinishedData](e)
			if err != nil || !d.OK {
				continue
			}
			p := paths[d.CallID]
			if p == "" {
				continue
			}
			switch name := names[d.CallID]; {
			case slices.Contains(readTools, name):
				if written[p] {
					continue // the run's own text, not the file as it was
				}
				if _, ok := c.Files[p]; ok {
					continue
				}
				text, ok := wholeRead(home, d)
				if !ok {
					c.Notes = append(c.Notes, fmt.Sprintf("%s was read in part; add the whole file to the fixture", p))
					continue
				}
				c.Files[p] = text
			case slices.Contains(writeTools, name):
				if !written[p] {
					written[p] = true
					wrote = append(wrote, p)
				}
			}
		}
	}
	for _, p := range wrote {
		ch := Check{File: p}
		if b, err := os.ReadFile(filepath.Join(s.Workspace, filepath.FromSlash(p))); err == nil {
			line := firstContentLine(string(b))
			ch.Contains = &line
		} else {
			ch.Matches = "."
			c.Notes = append(c.Notes, fmt.Sprintf("%s is no longer in the run's workspace; say what it must hold", p))
		}
		c.Task.Checks = append(c.Task.Checks, ch)
	}
	for _, name := range tools {
		n := 1
		c.Task.Checks = append(c.Task.Checks, Check{Tool: name, AtLeast: &n})
	}
	if a := firstContentLine(s.Answer); a != "" {
		c.Task.Checks = append(c.Task.Checks, Check{AnswerMatches: "(?i)" + regexp.QuoteMeta(a)})
	}
	if s.Iterations > 0 {
		c.Task.Checks = append(c.Task.Checks, Check{MaxIterations: s.Iterations * 2})
	}
	return c, nil
}

// wholeRead is the whole text a read_file call returned: its result, or
// its artifact when the result was cut for the model; not ok for a read
// of part of a file.
func wholeRead(home string, d event.ToolFinishedData) (string, bool) {
	text := d.Result
	if d.Artifact != "" {
		b, _, err := runlog.ReadArtifact(home, d.Artifact, 0, 0)
		if err != nil {
			return "", false
		}
		text = string(b)
	}
	if strings.HasPrefix(text, "(") && strings.HasSuffix(text, " is empty)") {
		return "", true
	}
	if partRead().MatchString(text) {
		return "", false
	}
	return text, true
}

// partRead is the note read_file ends a partial read with.
var partRead = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\n\[(lines \d+-\d+ of \d+|line \d+ is longer)[^\]]*\]$`)
})

func firstContentLine(s string) string {
	for l := range strings.SplitSeq(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			if r := []rune(l); len(r) > 60 {
				l = string(r[:60])
			}
			return l
		}
	}
	return ""
}

// caseID is a task id from the task's first words and the run's id.
func caseID(task, runID string) string {
	var words []string
	for w := range strings.FieldsFuncSeq(strings.ToLower(task), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		words = append(words, w)
		if len(words) == 4 {
			break
		}
	}
	tail := runID
	if len(tail) > 6 {
		tail = tail[len(tail)-6:]
	}
	return strings.Join(append(words, tail), "-")
}

// TOML is the case as a [[task]] of a suite, its fixture at workspace
// (relative to the suite), each proposed check to be edited.
func (c Case) TOML(workspace string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n# Proposed from a run: edit the checks before you rely on them.\n")
	for _, n := range c.Notes {
		fmt.Fprintf(&b, "# %s\n", n)
	}
	fmt.Fprintf(&b, "[[task]]\nid = %s\ntask = %s\n", strconv.Quote(c.Task.ID), tomlString(c.Task.Task))
	if workspace != "" {
		fmt.Fprintf(&b, "workspace = %s\n", strconv.Quote(workspace))
	}
	for _, ch := range c.Task.Checks {
		b.WriteString("\n  [[task.check]]\n")
		switch ch.Kind() {
		case KindFile:
			fmt.Fprintf(&b, "  file = %s\n", strconv.Quote(ch.File))
			if ch.Contains != nil {
				fmt.Fprintf(&b, "  contains = %s\n", tomlString(*ch.Contains))
			} else {
				fmt.Fprintf(&b, "  matches = %s\n", tomlString(ch.Matches))
			}
		case KindTool:
			fmt.Fprintf(&b, "  tool = %s\n  at_least = %d\n", strconv.Quote(ch.Tool), *ch.AtLeast)
		case KindAnswer:
			fmt.Fprintf(&b, "  answer_matches = %s\n", tomlString(ch.AnswerMatches))
		case KindLimits:
			fmt.Fprintf(&b, "  max_iterations = %d\n", ch.MaxIterations)
		}
	}
	return b.String()
}

// tomlString is s as a TOML literal string when it can be one (no
// escapes to read), else a basic string.
func tomlString(s string) string {
	if !strings.ContainsAny(s, "'\n\r") && !strings.ContainsFunc(s, unicode.IsControl) {
		return "'" + s + "'"
	}
	return strconv.Quote(s)
}
