package server

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"hermes/backend/api"
	"hermes/backend/atomicfile"
	"hermes/backend/eval"
	"hermes/backend/event"
	"hermes/backend/i18n"
	"hermes/backend/runlog"
	"hermes/backend/runner"
)

// homeUser is the runs of the process that owns the home, which can read
// the run's artifacts for a test case proposed from it.
type homeUser interface {
	storeUser
	Home() string
}

// defaultSuite is where a case goes unless the person names a suite:
// relative to the home.
const defaultSuite = "suites/cases.toml"

// proposeCase reads a finished run and proposes a test case from it, as
// hermes eval add does.
func (s *server) proposeCase(w http.ResponseWriter, r *http.Request) (home string, events []event.Event, c eval.Case, ok bool) {
	u, isOwner := s.runs.(homeUser)
	if !isOwner {
		writeAPIError(w, api.Error{Code: "not_owner", Message: bothLanguages("server.store_owner")})
		return "", nil, c, false
	}
	events, err := s.runs.Events(r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return "", nil, c, false
	}
	if st := runlog.Summarize(events).Status; st == "" || st == event.StatusRunning {
		writeAPIError(w, runner.NewAPIError("live", i18n.Errorf("server.case_live")))
		return "", nil, c, false
	}
	c, err = eval.CaseFrom(u.Home(), events)
	if err != nil {
		writeError(w, err)
		return "", nil, c, false
	}
	return u.Home(), events, c, true
}

// fixtureOf is the folder, relative to the suite, of a case's files.
func fixtureOf(c eval.Case) string {
	if len(c.Files) == 0 {
		return ""
	}
	return "fixtures/" + c.Task.ID
}

// runCase answers GET /api/runs/{id}/case: the [[task]] proposed from the
// run and the files of its fixture.
func (s *server) runCase(w http.ResponseWriter, r *http.Request) {
	home, events, c, ok := s.proposeCase(w, r)
	if !ok {
		return
	}
	files := make([]string, 0, len(c.Files))
	for p := range c.Files {
		files = append(files, p)
	}
	slices.Sort(files)
	writeJSON(w, http.StatusOK, api.CaseProposal{
		TaskID: c.Task.ID, TOML: strings.TrimLeft(c.TOML(fixtureOf(c)), "\n"), Files: files, Fixture: fixtureOf(c), Notes: c.Notes,
		Home: home, Workspace: runlog.Summarize(events).Workspace, Suite: defaultSuite,
	})
}

// saveCase answers POST /api/runs/{id}/case: the edited [[task]] appended
// to the suite the person named (made when it is not there) and the run's
// fixture written beside it. The suite must be in the home or the run's
// workspace: any page can send this request to loopback, so where it writes
// is bounded, and the text must make a suite hermes eval run accepts.
func (s *server) saveCase(w http.ResponseWriter, r *http.Request) {
	var body api.CaseRequest
	if !decode(w, r, &body, false) {
		return
	}
	home, events, c, ok := s.proposeCase(w, r)
	if !ok {
		return
	}
	suite, err := confineSuite(body.Suite, home, runlog.Summarize(events).Workspace)
	if err != nil {
		writeAPIError(w, runner.NewAPIError("bad_suite_path", err))
		return
	}
	var existing []byte
	switch b, err := os.ReadFile(suite); {
	case err == nil:
		existing = b
	case errors.Is(err, os.ErrNotExist):
		name := strings.TrimSuffix(filepath.Base(suite), filepath.Ext(suite))
		existing = fmt.Appendf(nil, "name = %q\n", name)
	default:
		writeError(w, err)
		return
	}
	text := string(existing)
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	text += "\n" + strings.TrimSpace(body.TOML) + "\n"

	dir := filepath.Dir(suite)
	fixture := filepath.Join(dir, filepath.FromSlash(fixtureOf(c)))
	made, err := writeFixture(fixture, c.Files)
	if err != nil {
		writeError(w, err)
		return
	}
	if _, err := eval.Parse(suite, text); err != nil {
		if made {
			_ = os.RemoveAll(fixture) // the fixture of a case that was not saved
		}
		writeAPIError(w, runner.NewAPIError("bad_case", i18n.Errorf("server.bad_case", err)))
		return
	}
	if err := atomicfile.WriteFile(suite, []byte(text), 0o644); err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, api.CaseSaved{Suite: suite, Files: len(c.Files)})
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
		if rel, err := filepath.Rel(dir, to); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
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

// confineSuite is the suite path p names: relative to home, or absolute;
// a .toml file inside home or workspace, links followed, or an error that
// says where it may go.
func confineSuite(p, home, workspace string) (string, error) {
	p = strings.TrimSpace(p)
	if p == "" {
		p = defaultSuite
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(home, p)
	}
	p = filepath.Clean(p)
	if filepath.Ext(p) != ".toml" {
		return "", i18n.Errorf("server.suite_not_toml", p)
	}
	real, err := realPath(p)
	if err != nil {
		return "", err
	}
	for _, root := range []string{home, workspace} {
		if root == "" {
			continue
		}
		r, err := realPath(root)
		if err != nil {
			continue
		}
		if rel, err := filepath.Rel(r, real); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return p, nil
		}
	}
	if workspace == "" {
		return "", i18n.Errorf("server.suite_outside_home", p, home)
	}
	return "", i18n.Errorf("server.suite_outside", p, home, workspace)
}

// realPath is p with the links of its deepest existing folder followed, so
// that a link inside the home cannot lead the suite out of it.
func realPath(p string) (string, error) {
	rest := ""
	for {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(r, rest), nil
		} else if !errors.Is(err, os.ErrNotExist) {
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
