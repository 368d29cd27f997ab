package cli_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/cli"
	"hermes/backend/event"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runner"
)

// notices reads a serve's notice stream.
func notices(t *testing.T, s served) <-chan runner.Notice {
	t.Helper()
	res := s.authed(t, "GET", "api/notices/stream", "")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("notices: %d", res.StatusCode)
	}
	c := make(chan runner.Notice, 16)
	go func() {
		defer close(c)
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			var n runner.Notice
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok && json.Unmarshal([]byte(data), &n) == nil {
				c <- n
			}
		}
	}()
	return c
}

// TestServe_KeepsLastGoodConfigOverDeepEdit: a hermes.toml nesting past any
// config, written over a running `hermes serve`'s (such a file once took
// the server down with its watcher), is refused at once with its place in
// both languages; the server goes on, its runs start on the last good
// config, and the next good edit applies.
func TestServe_KeepsLastGoodConfigOverDeepEdit(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Step{Content: "done"})
	home := t.TempDir()
	path := filepath.Join(home, "hermes.toml")
	good := fmt.Sprintf("[model]\nbase_url = %q\nmodel = \"the-good-one\"\nmax_retries = 0\n\n[agent]\nstrategy = \"react\"\nroute = false\nworkspace = %q\n", srv.URL, t.TempDir())
	if err := os.WriteFile(path, []byte(good), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startServeProcess(t, home)
	feed := notices(t, s.served)

	deep := good + "[tools]\nx = " + strings.Repeat("{a=", 8000) + "1" + strings.Repeat("}", 8000) + "\n"
	if err := os.WriteFile(path, []byte(deep), 0o600); err != nil {
		t.Fatal(err)
	}
	n := <-feed
	if n.Kind != runner.NoticeConfigError || len(n.Problems) != 1 {
		t.Fatalf("notice of the deep edit: %+v", n)
	}
	if p := n.Problems[0]; p.Line != 11 || p.Column != 96 || !strings.Contains(p.Message["en"], "more than 32 levels") || !strings.Contains(p.Message["zh-CN"], "嵌套超过 32 层") {
		t.Fatalf("problem: %+v", p)
	}

	res := s.authed(t, "POST", "api/runs", `{"task":"go on"}`)
	var ref struct {
		RunID string `json:"run_id"`
	}
	decodeErr := json.NewDecoder(res.Body).Decode(&ref)
	res.Body.Close()
	if decodeErr != nil {
		t.Fatal(decodeErr)
	}
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("a run on the last good config: %d", res.StatusCode)
	}
	var model, status string
	for e := range sse(t, s.served, ref.RunID) {
		if d, err := event.Decode[event.RunStartedData](e); err == nil && e.Type == event.RunStarted {
			model = d.Model
		}
		if d, err := event.Decode[event.RunFinishedData](e); err == nil && e.Type == event.RunFinished {
			status = d.Status
		}
	}
	if model != "the-good-one" || status != event.StatusFinished {
		t.Fatalf("the run used model %q and ended %q", model, status)
	}

	if err := os.WriteFile(path, []byte(strings.Replace(good, "max_retries = 0", "max_retries = 1", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	if n := <-feed; n.Kind != runner.NoticeConfigReloaded {
		t.Fatalf("notice of the fix: %+v", n)
	}
	if code := s.stop(t); code != cli.ExitOK {
		t.Fatalf("serve exited %d: %s", code, s.stderr)
	}
}
