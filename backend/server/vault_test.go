package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	neturl "net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/api"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runner"
)

// vaultHarness is hermes serve over a home whose [obsidian] vault is a
// real vault in a temp folder, its writes allowed, and a run of the
// scripted model's vault edits finished in it.
type vaultHarness struct {
	*harness
	vault string
	runID string
}

var vaultNotes = map[string]string{
	"Home.md":            "# Home\n\nSee [[Plan]] and [[Plan#Goals|the goals]].\n",
	"Projects/Plan.md":   "---\nstatus: draft\n---\n# Plan\n\n## Goals\n\nShip it, with [[Ideas]].\n",
	"Projects/Ideas.md":  "Back to [[Plan]].\n",
	".obsidian/app.json": "{}\n",
}

func newVaultHarness(t *testing.T, steps ...llmtest.Step) *vaultHarness {
	t.Helper()
	dir := t.TempDir()
	for p, text := range vaultNotes {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := llmtest.NewServer(t, steps...)
	h := &harness{t: t, home: t.TempDir(), ws: t.TempDir(), model: srv}
	toml := fmt.Sprintf("[model]\nbase_url = %q\nmodel = \"test-model\"\nmax_retries = 0\n\n[agent]\nstrategy = \"react\"\nroute = false\nworkspace = %q\n\n[obsidian]\nvault = %q\n\n[tools.risk]\nwrite = \"allow\"\n", srv.URL, h.ws, dir)
	if err := os.WriteFile(filepath.Join(h.home, "hermes.toml"), []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	h.serve(runner.Options{Toolkit: runner.OpenToolkit})
	vh := &vaultHarness{harness: h, vault: dir}
	vh.runID = h.start("Tidy my notes")
	if got := types(h.watch(vh.runID, 0, nil)); !strings.Contains(got, "run.finished") {
		t.Fatalf("the run did not finish: %s", got)
	}
	return vh
}

func (vh *vaultHarness) read(p string) string {
	vh.t.Helper()
	b, err := os.ReadFile(filepath.Join(vh.vault, filepath.FromSlash(p)))
	if err != nil {
		return "(missing)"
	}
	return string(b)
}

// refused checks that a request was answered with code, and that its
// message in English and Chinese holds what en and zh say.
func refused(t *testing.T, b []byte, code, en, zh string) {
	t.Helper()
	var body api.ErrorBody
	if err := json.Unmarshal(b, &body); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	if body.Error.Code != code || !strings.Contains(body.Error.Message["en"], en) || !strings.Contains(body.Error.Message["zh-CN"], zh) {
		t.Errorf("refused with %s, want %s, %q, %q", b, code, en, zh)
	}
}

// A rename undone through the API puts back every note whose links it
// changed and the note's own name, as one; the undo is kept, and a second
// one is refused.
func TestVaultEdit_UndoARename(t *testing.T) {
	vh := newVaultHarness(t,
		llmtest.Step{ToolCalls: calls("r1", "rename_note", `{"path":"Projects/Plan.md","new_path":"Archive/Plan 2024.md"}`)},
		llmtest.Step{Content: "Renamed."},
	)
	if vh.read("Home.md") == vaultNotes["Home.md"] || vh.read("Projects/Plan.md") != "(missing)" {
		t.Fatalf("the rename did nothing: %q", vh.read("Home.md"))
	}
	base := "/api/runs/" + vh.runID + "/calls/r1"
	var e api.VaultEdit
	vh.call("GET", base+"/edit", "", http.StatusOK, &e)
	if e.CallID != "r1" || !strings.Contains(string(e.Change), `"new_path":"Archive/Plan 2024.md"`) || e.UndoneAt != "" {
		t.Fatalf("the edit: %+v %s", e, e.Change)
	}
	vh.call("POST", base+"/undo", "", http.StatusOK, &e)
	if e.UndoneAt == "" {
		t.Errorf("the undo's answer has no time: %+v", e)
	}
	for p, want := range vaultNotes {
		if got := vh.read(p); got != want {
			t.Errorf("%s after the undo:\n%s\nwant\n%s", p, got, want)
		}
	}
	if got := vh.read("Archive/Plan 2024.md"); got != "(missing)" {
		t.Errorf("the renamed note is still there: %q", got)
	}
	var again api.VaultEdit
	vh.call("GET", base+"/edit", "", http.StatusOK, &again)
	if again.UndoneAt != e.UndoneAt {
		t.Errorf("the undo was not kept: %+v", again)
	}
	refused(t, vh.call("POST", base+"/undo", "", http.StatusConflict, nil), "undo_refused", "undone already", "已经撤销")
	refused(t, vh.call("GET", "/api/runs/"+vh.runID+"/calls/nope/edit", "", http.StatusNotFound, nil), "artifact_not_found", "", "")
	vh.call("GET", "/api/runs/"+vh.runID+"/calls/..%2F..%2Fx/edit", "", http.StatusBadRequest, nil)
	vh.call("POST", "/api/runs/nope/calls/r1/undo", "", http.StatusNotFound, nil)
}

// An undo over a note changed since the edit is refused with why, in
// both languages, and changes nothing.
func TestVaultEdit_UndoRefusedForANoteChangedSince(t *testing.T) {
	vh := newVaultHarness(t,
		llmtest.Step{ToolCalls: calls("p1", "set_property", `{"path":"Projects/Plan.md","name":"status","value":"done"}`)},
		llmtest.Step{Content: "Marked done."},
	)
	edited := "---\nstatus: done\n---\n# Plan\n\nRewritten in Obsidian since.\n"
	if err := os.WriteFile(filepath.Join(vh.vault, "Projects", "Plan.md"), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	b := vh.call("POST", "/api/runs/"+vh.runID+"/calls/p1/undo", "", http.StatusConflict, nil)
	refused(t, b, "undo_refused", "Projects/Plan.md changed after the edit", "Projects/Plan.md 在这次修改之后又被改动过")
	if got := vh.read("Projects/Plan.md"); got != edited {
		t.Errorf("the refused undo changed the note: %q", got)
	}
	var e api.VaultEdit
	vh.call("GET", "/api/runs/"+vh.runID+"/calls/p1/edit", "", http.StatusOK, &e)
	if e.UndoneAt != "" {
		t.Errorf("a refused undo was kept as done: %+v", e)
	}
}

// A note of the run's vault is read by name as a wikilink in another note
// finds it, with its backlinks; nothing outside the vault, nor in a folder
// never read, is.
func TestVaultNote(t *testing.T) {
	vh := newVaultHarness(t, llmtest.Step{Content: "Nothing to do."})
	note := "/api/runs/" + vh.runID + "/note?"
	var n api.VaultNote
	vh.call("GET", note+"name=Plan&from=Home.md", "", http.StatusOK, &n)
	if n.Path != "Projects/Plan.md" || n.Text != vaultNotes["Projects/Plan.md"] || n.Vault != filepath.Base(vh.vault) {
		t.Errorf("the note: %+v", n)
	}
	if len(n.Backlinks) != 3 || n.Backlinks[0].From != "Home.md" || n.Backlinks[2].From != "Projects/Ideas.md" {
		t.Errorf("its backlinks: %+v", n.Backlinks)
	}
	vh.call("GET", note+"name="+query("[[Ideas|the ideas]]")+"&from=Projects/Plan.md", "", http.StatusOK, &n)
	if n.Path != "Projects/Ideas.md" || len(n.Backlinks) != 1 {
		t.Errorf("a wikilink as written: %+v", n)
	}
	for _, name := range []string{"Nowhere", "../" + filepath.Base(vh.home) + "/hermes.toml", "/etc/passwd", ".obsidian/app.json"} {
		b := vh.call("GET", note+"name="+query(name), "", http.StatusNotFound, nil)
		refused(t, b, "note_not_found", "there is no note", "笔记库中没有笔记")
	}
	vh.call("GET", "/api/runs/nope/note?name=Plan", "", http.StatusNotFound, nil)
}

// The undo changes files on disk, so it is guarded as every change is: no
// token, another site's page, a form post or a rebinding host are refused,
// and the note is left as the edit made it. The note's route needs the
// token too.
func TestVaultEdit_UndoGuarded(t *testing.T) {
	vh := newVaultHarness(t,
		llmtest.Step{ToolCalls: calls("p1", "set_property", `{"path":"Projects/Plan.md","name":"status","value":"done"}`)},
		llmtest.Step{Content: "Marked done."},
	)
	edited := vh.read("Projects/Plan.md")
	undo := vh.url + "/api/runs/" + vh.runID + "/calls/p1/undo"
	cases := []struct {
		name   string
		header map[string]string
		want   int
	}{
		{"no token", map[string]string{"Content-Type": "application/json"}, http.StatusUnauthorized},
		{"a wrong token", map[string]string{"Content-Type": "application/json", "Authorization": "Bearer nope"}, http.StatusUnauthorized},
		{"another site's page", map[string]string{"Content-Type": "application/json", "Authorization": "Bearer " + testToken, "Origin": "https://evil.example"}, http.StatusForbidden},
		{"a cross-site fetch", map[string]string{"Content-Type": "application/json", "Authorization": "Bearer " + testToken, "Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
		{"a form post", map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Authorization": "Bearer " + testToken}, http.StatusForbidden},
		{"a rebinding host", map[string]string{"Content-Type": "application/json", "Authorization": "Bearer " + testToken, "Host": "evil.example"}, http.StatusMisdirectedRequest},
	}
	for _, c := range cases {
		req, err := http.NewRequestWithContext(t.Context(), "POST", undo, nil)
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range c.header {
			req.Header.Set(k, v)
		}
		if h := c.header["Host"]; h != "" {
			req.Host = h
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != c.want {
			t.Errorf("%s: %d, want %d", c.name, res.StatusCode, c.want)
		}
	}
	if got := vh.read("Projects/Plan.md"); got != edited {
		t.Errorf("a refused request undid the edit: %q", got)
	}
	res, err := http.Get(vh.url + "/api/runs/" + vh.runID + "/note?name=Plan")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Errorf("the note without a token: %d", res.StatusCode)
	}
}

// query escapes a query parameter's value.
func query(s string) string { return neturl.QueryEscape(s) }
