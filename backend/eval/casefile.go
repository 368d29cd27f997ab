package eval

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"hermes/backend/api"
	"hermes/backend/atomicfile"
	"hermes/backend/event"
	"hermes/backend/i18n"
	"hermes/backend/runlog"
	"hermes/backend/runner"
	"hermes/backend/store"
)

// What the local API and the window show of evals and of a run made a test
// case, in one place so that both answer alike (docs/api.md).

// DefaultSuite is where a case proposed in the UI goes unless the person
// names a suite: relative to the home.
const DefaultSuite = "suites/cases.toml"

// Listed is an eval with how many of its runs passed, failed, were not
// graded and erred.
type Listed struct {
	Eval
	Tally
}

// List is every eval of st, newest first, with its counts.
func List(st *store.Store) ([]Listed, error) {
	evs, err := ListEvals(st)
	if err != nil {
		return nil, err
	}
	counts, err := Counts(st)
	if err != nil {
		return nil, err
	}
	rows := make([]Listed, 0, len(evs))
	for _, ev := range evs {
		rows = append(rows, Listed{ev, counts[ev.ID]})
	}
	return rows, nil
}

// Shown is an eval, its results and its table, compared with its baseline
// when it has one.
type Shown struct {
	*Eval
	Cells []Cell `json:"cells"`
}

// Show reads eval id of st as Shown; an unknown id is eval_not_found.
func Show(st *store.Store, id string) (Shown, error) {
	ev, err := LoadEval(st, id)
	if errors.Is(err, ErrNoEval) {
		return Shown{}, runner.NewAPIError("eval_not_found", err)
	}
	if err != nil {
		return Shown{}, err
	}
	v := Shown{Eval: ev, Cells: Cells(ev)}
	if ev.Baseline != "" {
		if base, err := LoadEval(st, ev.Baseline); err == nil {
			Compare(v.Cells, Cells(base))
		}
	}
	return v, nil
}

// caseOf proposes the test case of a finished run of home.
func caseOf(home string, events []event.Event) (Case, error) {
	if st := runlog.Summarize(events).Status; st == "" || st == event.StatusRunning {
		return Case{}, runner.NewAPIError("live", i18n.Errorf("eval.case_live"))
	}
	return CaseFrom(home, events)
}

// fixtureOf is the folder, relative to the suite, of a case's files.
func fixtureOf(c Case) string {
	if len(c.Files) == 0 {
		return ""
	}
	return "fixtures/" + c.Task.ID
}

// ProposeCase is the test case proposed from a finished run of home (what
// hermes eval add appends), for a person to edit before SaveCase.
func ProposeCase(home string, events []event.Event) (api.CaseProposal, error) {
	c, err := caseOf(home, events)
	if err != nil {
		return api.CaseProposal{}, err
	}
	files := make([]string, 0, len(c.Files))
	for p := range c.Files {
		files = append(files, p)
	}
	slices.Sort(files)
	return api.CaseProposal{
		TaskID: c.Task.ID, TOML: strings.TrimLeft(c.TOML(fixtureOf(c)), "\n"), Files: files, Fixture: fixtureOf(c), Notes: c.Notes,
		Home: home, Workspace: runlog.Summarize(events).Workspace, Suite: DefaultSuite,
	}, nil
}

// SaveCase appends the (edited) [[task]] of req to its suite (made when it
// is not there) and writes the run's fixture beside it. The suite must be
// in the home or the run's workspace: any web page can send requests to the
// local API, so where it writes is bounded; and the suite with the case
// must load as hermes eval run loads it, else nothing is written.
func SaveCase(home string, events []event.Event, req api.CaseRequest) (api.CaseSaved, error) {
	c, err := caseOf(home, events)
	if err != nil {
		return api.CaseSaved{}, err
	}
	suite, err := confineSuite(req.Suite, home, runlog.Summarize(events).Workspace)
	if err != nil {
		return api.CaseSaved{}, runner.NewAPIError("bad_suite_path", err)
	}
	var existing []byte
	switch b, err := os.ReadFile(suite); {
	case err == nil:
		existing = b
	case errors.Is(err, os.ErrNotExist):
		name := strings.TrimSuffix(filepath.Base(suite), filepath.Ext(suite))
		existing = fmt.Appendf(nil, "name = %q\n", name)
	default:
		return api.CaseSaved{}, err
	}
	text := string(existing)
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	text += "\n" + strings.TrimSpace(req.TOML) + "\n"

	fixture := filepath.Join(filepath.Dir(suite), filepath.FromSlash(fixtureOf(c)))
	made, err := writeFixture(fixture, c.Files)
	if err != nil {
		return api.CaseSaved{}, err
	}
	if _, err := Parse(suite, text); err != nil {
		if made {
			_ = os.RemoveAll(fixture) // the fixture of a case that was not saved
		}
		return api.CaseSaved{}, runner.NewAPIError("bad_case", i18n.Errorf("eval.bad_case", err))
	}
	if err := os.MkdirAll(filepath.Dir(suite), 0o755); err != nil {
		return api.CaseSaved{}, err
	}
	if err := atomicfile.WriteFile(suite, []byte(text), 0o644); err != nil {
		return api.CaseSaved{}, err
	}
	return api.CaseSaved{Suite: suite, Files: len(c.Files)}, nil
}

// writeFixture writes files under dir, and says whether it made dir. A
// path that would leave dir (a run that read ../x) is not written.
func writeFixture(dir string, files map[string]string) (made bool, err error) {
	if len(files) == 0 {
		return false, nil
	}
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		made = true
	}
	for p, text := range files {
		to := filepath.Join(dir, filepath.FromSlash(p))
		if !within(dir, to) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return made, err
		}
		if err := atomicfile.WriteFile(to, []byte(text), 0o644); err != nil {
			return made, err
		}
	}
	return made, nil
}

// within says whether path p is root or below it.
func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// confineSuite is the suite path p names: relative to home, or absolute;
// a .toml file inside home or workspace, links followed, or an error that
// says where it may go.
func confineSuite(p, home, workspace string) (string, error) {
	p = strings.TrimSpace(p)
	if p == "" {
		p = DefaultSuite
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(home, p)
	}
	p = filepath.Clean(p)
	if filepath.Ext(p) != ".toml" {
		return "", i18n.Errorf("eval.suite_not_toml", p)
	}
	real, err := realPath(p)
	if err != nil {
		return "", err
	}
	for _, root := range []string{home, workspace} {
		if root == "" {
			continue
		}
		if r, err := realPath(root); err == nil && within(r, real) {
			return p, nil
		}
	}
	if workspace == "" {
		return "", i18n.Errorf("eval.suite_outside_home", p, home)
	}
	return "", i18n.Errorf("eval.suite_outside", p, home, workspace)
}

// realPath is p with the links of its deepest existing folder followed, so
// that a link inside the home cannot lead the suite out of it.
func realPath(p string) (string, error) {
	rest := ""
	for {
		r, err := filepath.EvalSymlinks(p)
		if err == nil {
			return filepath.Join(r, rest), nil
		}
		if !errors.Is(err, os.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(p)
		if parent == p {
			return filepath.Join(p, rest), nil
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
}
