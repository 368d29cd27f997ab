package server_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"hermes/backend/llm/llmtest"
	"hermes/backend/runner"
)

// TestServer_Notices: a broken edit of hermes.toml is listed and streamed as
// a notice, new runs still start, and the fix is streamed as a reload that
// clears the list.
func TestServer_Notices(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Step{Content: "done"})
	h := newHarness(t, srv, nil, "")
	var list []runner.Notice
	h.call("GET", "/api/notices", "", http.StatusOK, &list)
	if list == nil || len(list) != 0 {
		t.Fatalf("notices at start: %+v", list)
	}
	stream := h.stream("/api/notices/stream", nil)
	if err := h.runs.WatchConfig(t.Context()); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(h.home, "hermes.toml")
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append([]byte("[agent\n"), good...), 0o600); err != nil {
		t.Fatal(err)
	}
	next := func() runner.Notice {
		t.Helper()
		m, ok := <-stream
		if !ok || m.name != "notice" {
			t.Fatalf("stream: %+v", m)
		}
		var n runner.Notice
		if err := json.Unmarshal([]byte(m.data), &n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := next(); n.Kind != runner.NoticeConfigError || n.Problems[0].Line == 0 {
		t.Fatalf("notice: %+v", n)
	}
	h.call("GET", "/api/notices", "", http.StatusOK, &list)
	if len(list) != 1 || list[0].Kind != runner.NoticeConfigError {
		t.Fatalf("notices: %+v", list)
	}
	h.watch(h.start("go on"), 0, nil)

	if err := os.WriteFile(path, good, 0o600); err != nil {
		t.Fatal(err)
	}
	if n := next(); n.Kind != runner.NoticeConfigReloaded {
		t.Fatalf("notice: %+v", n)
	}
	h.call("GET", "/api/notices", "", http.StatusOK, &list)
	if len(list) != 0 {
		t.Fatalf("notices after the fix: %+v", list)
	}
}
