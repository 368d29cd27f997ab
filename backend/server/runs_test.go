package server_test

import (
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/event"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runlog"
	"hermes/backend/runner"
	"hermes/backend/store"
)

func TestServer_ArtifactsRenameDelete(t *testing.T) {
	srv := llmtest.NewServer(t,
		llmtest.Step{ToolCalls: calls("r1", "read_file", `{"path":"big.txt"}`)},
		llmtest.Step{Content: "Read it."},
	)
	h := newHarness(t, srv, nil, "observation_limit = 200\n")
	big := strings.Repeat("0123456789", 100)
	if err := os.WriteFile(filepath.Join(h.ws, "big.txt"), []byte(big), 0o600); err != nil {
		t.Fatal(err)
	}
	id := h.start("read big.txt")
	events := h.watch(id, 0, nil)
	var ref string
	for _, e := range events {
		if d, err := event.Decode[event.ToolFinishedData](e); e.Type == event.ToolFinished && err == nil {
			ref = d.Artifact
		}
	}
	if ref == "" {
		t.Fatalf("no artifact in %s", types(events))
	}

	res, body := fetch(t, "GET", h.url+"/api/runs/"+id+"/artifacts?ref="+ref+"&offset=10&limit=20", "")
	if res.StatusCode != http.StatusOK || string(body) != big[10:30] || res.Header.Get("X-Total-Size") != "1000" ||
		!strings.HasPrefix(res.Header.Get("Content-Type"), "text/plain") {
		t.Fatalf("artifact: %d %q, X-Total-Size %q", res.StatusCode, body, res.Header.Get("X-Total-Size"))
	}
	for _, bad := range []string{"artifacts/other-run/r1", "../hermes.toml", ref + "&offset=-1"} {
		h.call("GET", "/api/runs/"+id+"/artifacts?ref="+bad, "", http.StatusBadRequest, nil)
	}

	h.call("PATCH", "/api/runs/"+id, `{"title":"Read the big file"}`, http.StatusNoContent, nil)
	h.call("PATCH", "/api/runs/"+id, `{"title":"`+strings.Repeat("x", 201)+`"}`, http.StatusBadRequest, nil)
	var runs []runner.Summary
	h.call("GET", "/api/runs", "", http.StatusOK, &runs)
	if len(runs) != 2 || !runs[1].Sample || runs[0].Title != "Read the big file" || runs[0].Task != "read big.txt" || runs[0].Live {
		t.Fatalf("after rename: %+v", runs)
	}

	logPath := runs[0].Path
	h.call("DELETE", "/api/runs/"+id, "", http.StatusNoContent, nil)
	for _, p := range []string{logPath, strings.TrimSuffix(logPath, ".jsonl") + ".meta.json", filepath.Join(h.home, "artifacts", id)} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s is still there: %v", p, err)
		}
	}
	db, err := store.Open(filepath.Join(h.home, "hermes.db"))
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = db.LoadCheckpoint(id)
	db.Close()
	if !errors.Is(err, store.ErrNoCheckpoint) {
		t.Errorf("the checkpoint outlived the run: %v", err)
	}
	h.call("GET", "/api/runs/"+id+"/events", "", http.StatusNotFound, nil)
	h.call("DELETE", "/api/runs/"+id, "", http.StatusNotFound, nil)
}

func TestServer_SettingsAndModelCheck(t *testing.T) {
	srv := llmtest.NewServer(t)
	h := newHarness(t, srv, nil, "")
	body := h.call("GET", "/api/settings", "", http.StatusOK, nil)
	var st runner.Settings
	h.call("GET", "/api/settings", "", http.StatusOK, &st)
	if !st.HasKey || st.BaseURL != srv.URL || st.Model != "test-model" || st.Workspace != h.ws || st.Home != h.home || st.KeyEnv != "OPENAI_API_KEY" {
		t.Errorf("settings %+v", st)
	}
	if strings.Contains(string(body), testKey) {
		t.Fatal("the settings carry the key")
	}

	var check struct {
		OK    bool             `json:"ok"`
		Error *runner.APIError `json:"error"`
	}
	h.call("POST", "/api/model/check", "", http.StatusOK, &check)
	if !check.OK || check.Error != nil {
		t.Errorf("check of a working endpoint: %+v", check)
	}
	gone := llmtest.NewServer(t)
	gone.Close()
	h.call("POST", "/api/model/check", `{"base_url":"`+gone.URL+`"}`, http.StatusOK, &check)
	if check.OK || check.Error == nil || check.Error.Code != "model_unreachable" || check.Error.Message["zh-CN"] == "" {
		t.Errorf("check of a closed endpoint: %+v", check)
	}
	// A run is not started against an endpoint that does not answer.
	var failed struct {
		Error runner.APIError `json:"error"`
	}
	h.call("POST", "/api/runs", `{"task":"t","base_url":"`+gone.URL+`"}`, http.StatusBadGateway, &failed)
	if failed.Error.Code != "model_unreachable" || !strings.Contains(failed.Error.Message["en"], "base_url") {
		t.Errorf("start against a closed endpoint: %+v", failed.Error)
	}
}

func TestServer_BadRequests(t *testing.T) {
	h := newHarness(t, llmtest.NewServer(t), nil, "")
	tests := []struct {
		method, path, body string
		status             int
		code               string
	}{
		{"POST", "/api/runs", `{"task":`, 400, "bad_request"},
		{"POST", "/api/runs", `{"task":"  "}`, 400, "no_task"},
		{"POST", "/api/runs", `{"task":"t","workspace":"/no/such/dir"}`, 400, "bad_workspace"},
		{"POST", "/api/runs/20261130-000000-abcdef/control", `{"kind":"pause"}`, 404, "run_not_found"},
		{"POST", "/api/runs/20261130-000000-abcdef/control", `{"kind":"dance"}`, 400, "bad_control"},
		{"POST", "/api/runs/20261130-000000-abcdef/control", `{"kind":"approve"}`, 400, "bad_control"},
		{"POST", "/api/runs/20261130-000000-abcdef/control", `{"kind":"inject"}`, 400, "bad_control"},
		{"POST", "/api/runs/20261130-000000-abcdef/control", `{"kind":"pin"}`, 400, "bad_control"},
		{"POST", "/api/runs/20261130-000000-abcdef/approvals/x", `{"decision":"maybe"}`, 400, "bad_decision"},
		{"POST", "/api/runs/20261130-000000-abcdef/resume", ``, 404, "run_not_found"},
		{"GET", "/api/runs/20261130-000000-abcdef/stream?after=x", ``, 400, "bad_range"},
		{"DELETE", "/api/runs/..%2Fhermes", ``, 404, "run_not_found"},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path+" "+tt.body, func(t *testing.T) {
			var body struct {
				Error runner.APIError `json:"error"`
			}
			h.call(tt.method, tt.path, tt.body, tt.status, &body)
			if body.Error.Code != tt.code || body.Error.Message["en"] == "" || body.Error.Message["zh-CN"] == "" {
				t.Errorf("error %+v, want code %s in both languages", body.Error, tt.code)
			}
		})
	}
}

func TestServer_SampleRun(t *testing.T) {
	h := newHarness(t, llmtest.NewServer(t), nil, "")
	var runs []runner.Summary
	h.call("GET", "/api/runs", "", http.StatusOK, &runs)
	if len(runs) != 1 || !runs[0].Sample || runs[0].Status != event.StatusFinished || runs[0].Iterations < 3 {
		t.Fatalf("an empty home lists %+v", runs)
	}
	id := runs[0].RunID
	var events []event.Event
	h.call("GET", "/api/runs/"+id+"/events", "", http.StatusOK, &events)
	if got := h.watch(id, 0, nil); len(got) != len(events) || got[0].Type != event.RunStarted {
		t.Fatalf("the sample streams %d events, lists %d", len(got), len(events))
	}
	for _, req := range []struct{ method, path, body string }{
		{"DELETE", "/api/runs/" + id, ""},
		{"PATCH", "/api/runs/" + id, `{"title":"mine"}`},
		{"POST", "/api/runs/" + id + "/resume", ""},
		{"POST", "/api/runs/" + id + "/fork", `{"iteration":2}`},
		{"POST", "/api/runs/" + id + "/control", `{"kind":"pause"}`},
	} {
		h.call(req.method, req.path, req.body, http.StatusConflict, nil)
	}
	// It is never written into the home's logs.
	if logged, err := runlog.List(h.home); err != nil || len(logged) != 0 {
		t.Fatalf("the home's logs hold %d runs, %v", len(logged), err)
	}
}
