package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/contextmgr"
	"hermes/backend/event"
	"hermes/backend/llm/llmtest"
	"hermes/backend/longterm"
	"hermes/backend/runner"
)

// apiError decodes an {"error": …} body.
func apiError(t *testing.T, b []byte) runner.APIError {
	t.Helper()
	var body struct {
		Error runner.APIError `json:"error"`
	}
	if err := json.Unmarshal(b, &body); err != nil {
		t.Fatalf("%v in %s", err, b)
	}
	return body.Error
}

// TestServer_Memory: a finished run's memory is listed with its source run,
// shown, pinned, unpinned and forgotten; a memory that is not there is 404
// memory_not_found.
func TestServer_Memory(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Step{Content: "The notes are in notes/plan.md."})
	h := newHarness(t, srv, nil, "")
	id := h.start("where are the notes?")
	h.watch(id, 0, nil)

	var entries []longterm.Entry
	h.call("GET", "/api/memory", "", http.StatusOK, &entries)
	var outcome longterm.Entry
	for _, e := range entries {
		if e.Kind == longterm.KindOutcome {
			outcome = e
		}
	}
	if outcome.ID == 0 || outcome.RunID != id || outcome.Source != longterm.SourceResult || !strings.Contains(outcome.Text, "notes/plan.md") {
		t.Fatalf("memory after the run: %+v", entries)
	}
	path := fmt.Sprintf("/api/memory/%d", outcome.ID)
	h.call("POST", path+"/pin", `{"pinned": true}`, http.StatusNoContent, nil)
	var shown longterm.Entry
	h.call("GET", path, "", http.StatusOK, &shown)
	if !shown.Pinned || shown.Text != outcome.Text {
		t.Fatalf("after pin: %+v", shown)
	}
	h.call("POST", path+"/pin", `{"pinned": false}`, http.StatusNoContent, nil)
	var unpinned longterm.Entry
	h.call("GET", path, "", http.StatusOK, &unpinned)
	if unpinned.Pinned {
		t.Fatal("still pinned after unpinning")
	}
	h.call("GET", "/api/memory?limit=1", "", http.StatusOK, &entries)
	if len(entries) != 1 {
		t.Fatalf("limit 1 gave %d entries", len(entries))
	}

	h.call("DELETE", path, "", http.StatusNoContent, nil)
	for _, c := range []struct{ method, path, body string }{
		{"GET", path, ""},
		{"DELETE", path, ""},
		{"POST", path + "/pin", `{"pinned": true}`},
		{"GET", "/api/memory/not-a-number", ""},
	} {
		b := h.call(c.method, c.path, c.body, http.StatusNotFound, nil)
		if e := apiError(t, b); e.Code != "memory_not_found" || e.Message["en"] == "" || e.Message["zh-CN"] == "" {
			t.Fatalf("%s %s: %s", c.method, c.path, b)
		}
	}
	if e := apiError(t, h.call("GET", "/api/memory?limit=-1", "", http.StatusBadRequest, nil)); e.Code != "bad_range" {
		t.Fatalf("a negative limit: %+v", e)
	}
}

// TestServer_ContextPreview: a live run's preview comes from the run
// itself, a stopped one's from its checkpoint; a run without one is 404.
func TestServer_ContextPreview(t *testing.T) {
	hold := make(chan struct{})
	srv := llmtest.NewServer(t,
		llmtest.Step{Content: "Looking.", ToolCalls: calls("c1", "list_files", `{}`)},
		llmtest.Step{Content: "Empty.", Wait: hold},
	)
	h := newHarness(t, srv, nil, "")
	cfg := filepath.Join(h.home, "hermes.toml")
	raw, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte(strings.Replace(string(raw), "max_retries = 0\n", "max_retries = 0\ncontext_window = 16000\n", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	id := h.start("what is in the workspace?")
	live := h.stream("/api/runs/"+id+"/stream", nil)
	// The second request is built after the first iteration's checkpoint.
	until(t, live, 0, func(e event.Event) bool { return e.Type == event.ContextBuilt && e.Iteration == 2 })

	var p contextmgr.Preview
	h.call("GET", "/api/runs/"+id+"/context/preview", "", http.StatusOK, &p)
	if p.Window != 16000 || p.Threshold == 0 || p.Tokens == 0 || p.Due || p.Turns == nil || p.Pinned == nil || p.Facts == nil {
		t.Fatalf("live preview: %+v", p)
	}
	close(hold)
	h.watch(id, 0, nil)
	var after contextmgr.Preview
	h.call("GET", "/api/runs/"+id+"/context/preview", "", http.StatusOK, &after)
	if after.Window != 16000 || after.Tokens == 0 {
		t.Fatalf("preview from the checkpoint: %+v", after)
	}

	if e := apiError(t, h.call("GET", "/api/runs/20260101-000000-abcdef/context/preview", "", http.StatusNotFound, nil)); e.Code != "run_not_found" {
		t.Fatalf("unknown run: %+v", e)
	}
}
