package server_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"hermes/backend/event"
	"hermes/backend/runlog"
	"hermes/backend/runner"
	"hermes/backend/runner/sample"
	"hermes/backend/server"
	"hermes/backend/server/servertest"
)

var now = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// testToken is the token every test server is given.
const testToken = "0123456789abcdef0123456789abcdef"

// startServer serves home over real loopback HTTP for the test's duration.
func startServer(t *testing.T, home string, assets fstest.MapFS) string {
	t.Helper()
	o := server.Options{Runs: runner.New(runner.Options{Home: home}), Token: testToken}
	if assets != nil {
		o.Assets = assets
	}
	srv := httptest.NewServer(server.New(o))
	t.Cleanup(srv.Close)
	return srv.URL
}

// sampleID is the id of the sample run that ships inside Hermes.
func sampleID(t *testing.T) string {
	t.Helper()
	events, err := sample.Events()
	if err != nil || len(events) == 0 {
		t.Fatalf("the sample run: %d events, %v", len(events), err)
	}
	return events[0].RunID
}

// get sends GET url with the token and decodes the JSON answer into into.
func get(t *testing.T, url string, into any) *http.Response {
	t.Helper()
	res, body := fetch(t, "GET", url, "")
	if into != nil {
		if err := json.Unmarshal(body, into); err != nil {
			t.Fatalf("GET %s: %v in %q", url, err, body)
		}
	}
	return res
}

type errorBody struct {
	Error struct {
		Code    string            `json:"code"`
		Message map[string]string `json:"message"`
	} `json:"error"`
}

func TestServer_ListRuns(t *testing.T) {
	home := t.TempDir()
	want, err := servertest.WriteSample(home, now)
	if err != nil {
		t.Fatal(err)
	}
	url := startServer(t, home, nil)

	var got []runlog.Summary
	res := get(t, url+"/api/runs", &got)
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("status %d, content type %q", res.StatusCode, res.Header.Get("Content-Type"))
	}
	// The sample run ends the list, after the home's own runs.
	if len(got) != len(want)+1 || got[len(want)].RunID != sampleID(t) {
		t.Fatalf("got %d runs, want %d and the sample", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.RunID != w.RunID || g.Task != w.Task || g.Status != w.Status || g.Iterations != w.Iterations || g.Tokens != w.Tokens {
			t.Errorf("run %d = {%s %q %s %d iterations %d tokens}, want {%s %q %s %d iterations %d tokens}",
				i, g.RunID, g.Task, g.Status, g.Iterations, g.Tokens, w.RunID, w.Task, w.Status, w.Iterations, w.Tokens)
		}
	}
}

func TestServer_ListRuns_EmptyAndDamagedHomes(t *testing.T) {
	tests := []struct {
		name    string
		prepare func(t *testing.T, home string)
		want    int
	}{
		// Either lists the sample run that ships inside Hermes, last.
		{"no logs directory", func(*testing.T, string) {}, 1},
		{"a damaged log beside a good one", func(t *testing.T, home string) {
			if _, err := servertest.WriteRun(home, servertest.Run{Task: "good", Model: "m", Started: now, Iterations: 1, Status: event.StatusFinished}); err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(home, "logs", "2026-11-29")
			if err := os.MkdirAll(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "run_20261129-000000-aaaaaa.jsonl"), []byte("not json\n{}\n"), 0o600); err != nil {
				t.Fatal(err)
			}
		}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			tt.prepare(t, home)
			var raw json.RawMessage
			res := get(t, startServer(t, home, nil)+"/api/runs", &raw)
			var runs []runner.Summary
			if err := json.Unmarshal(raw, &runs); err != nil {
				t.Fatal(err)
			}
			if res.StatusCode != http.StatusOK || len(runs) != tt.want || !runs[len(runs)-1].Sample {
				t.Fatalf("status %d, body %s; want %d runs", res.StatusCode, raw, tt.want)
			}
		})
	}
}

func TestServer_RunEvents(t *testing.T) {
	home := t.TempDir()
	written, err := servertest.WriteSample(home, now)
	if err != nil {
		t.Fatal(err)
	}
	url := startServer(t, home, nil)
	for _, w := range written {
		t.Run(w.Status, func(t *testing.T) {
			var events []event.Event
			if res := get(t, url+"/api/runs/"+w.RunID+"/events", &events); res.StatusCode != http.StatusOK {
				t.Fatalf("status %d", res.StatusCode)
			}
			if len(events) != w.Events {
				t.Fatalf("got %d events, want %d", len(events), w.Events)
			}
			for i, e := range events {
				if e.Seq != int64(i+1) || e.RunID != w.RunID || e.V != event.Version {
					t.Fatalf("event %d = seq %d run %s v%d", i, e.Seq, e.RunID, e.V)
				}
			}
			if events[0].Type != event.RunStarted {
				t.Errorf("first event is %s", events[0].Type)
			}
			fromLog, err := runlog.ReadFile(w.Path)
			if err != nil {
				t.Fatal(err)
			}
			if string(events[len(events)-1].Data) != string(fromLog[len(fromLog)-1].Data) {
				t.Errorf("last event data differs from the log")
			}
		})
	}
}

func TestServer_Errors(t *testing.T) {
	home := t.TempDir()
	corrupt := servertest.Run{Task: "to be damaged", Model: "m", Started: now, Iterations: 2, Status: event.StatusFinished}
	w, err := servertest.WriteRun(home, corrupt)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(w.Path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	lines[2] = "{broken\n"
	if err := os.WriteFile(w.Path, []byte(strings.Join(lines, "")), 0o600); err != nil {
		t.Fatal(err)
	}
	url := startServer(t, home, nil)

	tests := []struct {
		name, path, code string
		status           int
		en, zh           string
	}{
		{"unknown run", "/api/runs/20261130-000000-ffffff/events", "run_not_found", 404, "no run 20261130-000000-ffffff", "找不到运行 20261130-000000-ffffff"},
		{"run id escaping the logs", "/api/runs/..%2F..%2Fetc/events", "run_not_found", 404, "hermes runs", "hermes runs"},
		{"corrupt log", "/api/runs/" + w.RunID + "/events", "corrupt_log", 500, "line 3 of the run log", "运行日志第 3 行"},
		{"unknown endpoint", "/api/nothing", "no_endpoint", 404, "no API endpoint GET /api/nothing", "没有 API 端点 GET /api/nothing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var body errorBody
			res := get(t, url+tt.path, &body)
			if res.StatusCode != tt.status || body.Error.Code != tt.code {
				t.Fatalf("status %d code %q, want %d %q", res.StatusCode, body.Error.Code, tt.status, tt.code)
			}
			if en := body.Error.Message["en"]; !strings.Contains(en, tt.en) {
				t.Errorf("en message %q lacks %q", en, tt.en)
			}
			if zh := body.Error.Message["zh-CN"]; !strings.Contains(zh, tt.zh) {
				t.Errorf("zh-CN message %q lacks %q", zh, tt.zh)
			}
		})
	}
}

func TestServer_UI(t *testing.T) {
	assets := fstest.MapFS{
		"index.html":         {Data: []byte("<!doctype html><div id=root></div>")},
		"assets/index-1.js":  {Data: []byte("console.log(1)")},
		"assets/index-1.css": {Data: []byte("body{}")},
	}
	url := startServer(t, t.TempDir(), assets)
	tests := []struct {
		path, contains, cache string
		status                int
	}{
		{"/", "<div id=root>", "no-cache", 200},
		{"/assets/index-1.js", "console.log", "public, max-age=31536000, immutable", 200},
		// http.Error drops caching headers from an error reply.
		{"/missing.txt", "404", "", 404},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			res, body := fetch(t, "GET", url+tt.path, "")
			if res.StatusCode != tt.status || !strings.Contains(string(body), tt.contains) {
				t.Fatalf("status %d body %q", res.StatusCode, body)
			}
			if got := res.Header.Get("Cache-Control"); got != tt.cache {
				t.Errorf("Cache-Control %q, want %q", got, tt.cache)
			}
			for _, h := range []string{"Content-Security-Policy", "X-Content-Type-Options"} {
				if res.Header.Get(h) == "" {
					t.Errorf("missing %s", h)
				}
			}
		})
	}
}

func TestServer_WithoutUI(t *testing.T) {
	url := startServer(t, t.TempDir(), nil)
	_, body := fetch(t, "GET", url+"/", "")
	for _, want := range []string{"has no web UI", "不含网页界面", "-tags ui"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("page lacks %q: %s", want, body)
		}
	}
}
