package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/api"
	"hermes/backend/eval"
	"hermes/backend/homelock"
	"hermes/backend/llm/llmtest"
	"hermes/backend/remote"
	"hermes/backend/server"
)

// A finished run read a note and wrote a summary: GET proposes its case,
// POST appends the edited case to a suite in the home that hermes eval
// loads, with the note as it was before the run in its fixture.
func TestCase_ProposeAndSave(t *testing.T) {
	srv := llmtest.NewServer(t,
		llmtest.Step{ToolCalls: calls("r1", "read_file", `{"path":"notes/a.md"}`)},
		llmtest.Step{ToolCalls: calls("w1", "write_file", `{"path":"SUMMARY.md","content":"a: Friday\n"}`)},
		llmtest.Step{Content: "Summarised one note."},
	)
	h := newHarness(t, srv, nil, "")
	if err := os.MkdirAll(filepath.Join(h.ws, "notes"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(h.ws, "notes", "a.md"), []byte("# A\nSee you Friday.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	id := h.start("summarise the notes")
	h.watch(id, 0, nil)

	var p api.CaseProposal
	h.call("GET", "/api/runs/"+id+"/case", "", http.StatusOK, &p)
	if len(p.Files) != 1 || p.Files[0] != "notes/a.md" || !strings.Contains(p.TOML, `file = "SUMMARY.md"`) || !strings.Contains(p.TOML, `workspace = "fixtures/`) || p.Home != h.home || p.Workspace != h.ws {
		t.Fatalf("proposal: %+v", p)
	}

	edited := strings.Replace(p.TOML, "contains = 'a: Friday'", "contains = 'Friday'", 1)
	body, _ := json.Marshal(api.CaseRequest{Suite: "suites/mine.toml", TOML: edited})
	var saved api.CaseSaved
	h.call("POST", "/api/runs/"+id+"/case", string(body), http.StatusCreated, &saved)
	want := filepath.Join(h.home, "suites", "mine.toml")
	if saved.Suite != want || saved.Files != 1 {
		t.Fatalf("saved: %+v", saved)
	}
	s, err := eval.Load(want)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Tasks) != 1 || s.Tasks[0].ID != p.TaskID || s.Tasks[0].Task != "summarise the notes" {
		t.Fatalf("suite: %+v", s.Tasks)
	}
	b, err := os.ReadFile(filepath.Join(h.home, "suites", filepath.FromSlash(p.Fixture), "notes", "a.md"))
	if err != nil || string(b) != "# A\nSee you Friday.\n" {
		t.Errorf("fixture: %q, %v", b, err)
	}

	// A second case of the same id would not load: nothing is written.
	before, _ := os.ReadFile(want)
	res, out := fetch(t, "POST", h.url+"/api/runs/"+id+"/case", string(body))
	after, _ := os.ReadFile(want)
	if res.StatusCode != http.StatusBadRequest || !strings.Contains(string(out), `"bad_case"`) || string(before) != string(after) {
		t.Errorf("a duplicate case: %d %s", res.StatusCode, out)
	}
}

// The suite goes in the home or the run's workspace only: any page can
// send requests to loopback, so a case must not write elsewhere.
func TestCase_SuiteConfined(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Step{Content: "Done."})
	h := newHarness(t, srv, nil, "")
	id := h.start("say done")
	h.watch(id, 0, nil)
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(h.home, "out")); err != nil {
		t.Fatal(err)
	}
	for _, suite := range []string{
		filepath.Join(outside, "x.toml"),
		"../x.toml",
		"out/x.toml", // a link in the home to a folder outside it
		"suites/x.txt",
	} {
		body, _ := json.Marshal(api.CaseRequest{Suite: suite, TOML: "[[task]]\nid = 'x'\ntask = 'x'\n[[task.check]]\nanswer_matches = 'x'\n"})
		res, out := fetch(t, "POST", h.url+"/api/runs/"+id+"/case", string(body))
		if res.StatusCode != http.StatusBadRequest || !strings.Contains(string(out), `"bad_suite_path"`) || !strings.Contains(string(out), h.home) {
			t.Errorf("suite %s: %d %s", suite, res.StatusCode, out)
		}
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("written outside the home: %v", entries)
	}
	// In the run's workspace, by its absolute path: saved.
	body, _ := json.Marshal(api.CaseRequest{Suite: filepath.Join(h.ws, "evals.toml"), TOML: "[[task]]\nid = 'x'\ntask = 'x'\n[[task.check]]\nanswer_matches = 'x'\n"})
	h.call("POST", "/api/runs/"+id+"/case", string(body), http.StatusCreated, nil)
}

// Saving a case writes files: a request without the token is refused, and
// so is one from another origin, before anything is read or written.
func TestCase_RefusedWithoutToken(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Step{Content: "Done."})
	h := newHarness(t, srv, nil, "")
	id := h.start("say done")
	h.watch(id, 0, nil)
	body := `{"suite":"suites/x.toml","toml":"[[task]]\nid = 'x'\ntask = 'x'\n[[task.check]]\nanswer_matches = 'x'\n"}`
	for _, tc := range []struct {
		name    string
		headers map[string]string
		status  int
		code    string
	}{
		{"no token", map[string]string{"Content-Type": "application/json"}, http.StatusUnauthorized, "unauthorized"},
		{"a wrong token", map[string]string{"Content-Type": "application/json", "Authorization": "Bearer nope"}, http.StatusUnauthorized, "unauthorized"},
		{"another origin", map[string]string{"Content-Type": "application/json", "Authorization": "Bearer " + testToken, "Origin": "http://127.0.0.1:1"}, http.StatusForbidden, "cross_site"},
		{"a form", map[string]string{"Content-Type": "text/plain", "Authorization": "Bearer " + testToken}, http.StatusForbidden, "not_json"},
	} {
		for _, method := range []string{"POST", "GET"} {
			if method == "GET" && tc.status == http.StatusForbidden {
				continue // a read is let through by origin; its answer is the page's own to read
			}
			req, _ := http.NewRequestWithContext(t.Context(), method, h.url+"/api/runs/"+id+"/case", strings.NewReader(body))
			for k, v := range tc.headers {
				req.Header.Set(k, v)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			var e struct {
				Error api.Error `json:"error"`
			}
			_ = json.NewDecoder(res.Body).Decode(&e)
			_ = res.Body.Close()
			if res.StatusCode != tc.status || e.Error.Code != tc.code {
				t.Errorf("%s %s: %d %q", tc.name, method, res.StatusCode, e.Error.Code)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(h.home, "suites")); !os.IsNotExist(err) {
		t.Errorf("a refused request wrote the suite: %v", err)
	}
}

// A hermes serve attached to the process that owns the home (hermes eval
// run, say) passes labels, evals and test cases on to the owner, which
// keeps hermes.db.
func TestEvals_AttachedAsksTheOwner(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Step{Content: "Done."})
	h := newHarness(t, srv, nil, "")
	id := h.start("say done")
	h.watch(id, 0, nil)
	// The harness's server is the owner's local API: the lock names it.
	c, err := remote.Dial(t.Context(), homelock.Lock{Addr: strings.TrimPrefix(h.url, "http://"), Token: testToken})
	if err != nil {
		t.Fatal(err)
	}
	// Its stream to the owner ends before the owner's server closes.
	t.Cleanup(func() { _ = c.Shutdown(context.Background()) })
	attached := httptest.NewServer(server.New(server.Options{Runs: c, Token: testToken}))
	t.Cleanup(attached.Close)

	res, body := fetch(t, "PUT", attached.URL+"/api/runs/"+id+"/label", `{"label":"bad","note":"wrong"}`)
	if res.StatusCode != http.StatusNoContent {
		t.Fatalf("PUT label through the attached server: %d %s", res.StatusCode, body)
	}
	_, body = fetch(t, "GET", h.url+"/api/labels", "")
	if !strings.Contains(string(body), `"label":"bad"`) {
		t.Errorf("the owner's labels: %s", body)
	}
	res, body = fetch(t, "GET", attached.URL+"/api/evals", "")
	if res.StatusCode != http.StatusOK || strings.TrimSpace(string(body)) != "[]" {
		t.Errorf("GET /api/evals through the attached server: %d %s", res.StatusCode, body)
	}
	res, body = fetch(t, "GET", attached.URL+"/api/evals/ev-nope", "")
	if res.StatusCode != http.StatusNotFound || !strings.Contains(string(body), "eval_not_found") {
		t.Errorf("an unknown eval through the attached server: %d %s", res.StatusCode, body)
	}
	var p api.CaseProposal
	res, body = fetch(t, "GET", attached.URL+"/api/runs/"+id+"/case", "")
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &p) != nil || p.Home != h.home {
		t.Fatalf("GET case through the attached server: %d %s", res.StatusCode, body)
	}
	req, _ := json.Marshal(api.CaseRequest{Suite: "suites/a.toml", TOML: p.TOML})
	res, body = fetch(t, "POST", attached.URL+"/api/runs/"+id+"/case", string(req))
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("POST case through the attached server: %d %s", res.StatusCode, body)
	}
	if _, err := eval.Load(filepath.Join(h.home, "suites", "a.toml")); err != nil {
		t.Error(err)
	}
	// The attached server checks the token itself before passing anything on.
	r, _ := http.NewRequestWithContext(t.Context(), "PUT", attached.URL+"/api/runs/"+id+"/label", strings.NewReader(`{"label":"good"}`))
	r.Header.Set("Content-Type", "application/json")
	res, err = http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	_ = res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Errorf("a PUT without the token: %d", res.StatusCode)
	}
}
