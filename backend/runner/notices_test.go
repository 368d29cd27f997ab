package runner_test

import (
	"bytes"
	"crypto/rand"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"aead.dev/minisign"

	"hermes/backend/llm/llmtest"
	"hermes/backend/runner"
	"hermes/backend/update"
)

// nextNotice waits for the next notice the feed gets.
func nextNotice(t *testing.T, f *runner.NoticeFeed, pending *[]runner.Notice) runner.Notice {
	t.Helper()
	for len(*pending) == 0 {
		select {
		case <-f.Ready():
			*pending = f.Take()
		case <-t.Context().Done():
			t.Fatal("no notice came")
		}
	}
	n := (*pending)[0]
	*pending = (*pending)[1:]
	return n
}

// TestManager_ConfigWatch: a broken edit of hermes.toml keeps the last good
// config for new runs and puts up a notice with the mistake's place in both
// languages; fixing the file clears it with a "reloaded" notice.
func TestManager_ConfigWatch(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Step{Content: "done"})
	m, home := newManager(t, srv)
	t.Cleanup(func() { _ = m.Shutdown(t.Context()) })
	path := filepath.Join(home, "hermes.toml")
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	feed := m.Notices().Watch()
	defer feed.Close()
	if err := m.WatchConfig(t.Context()); err != nil {
		t.Fatal(err)
	}
	var pending []runner.Notice

	broken := string(good) + "max_retrys = 2\n"
	if err := os.WriteFile(path, []byte(broken), 0o600); err != nil {
		t.Fatal(err)
	}
	n := nextNotice(t, feed, &pending)
	if n.Kind != runner.NoticeConfigError || n.Path != path || len(n.Problems) != 1 {
		t.Fatalf("notice of a broken edit: %+v", n)
	}
	p := n.Problems[0]
	if p.Line != 5 || p.Column != 1 || !strings.Contains(p.Message["en"], "max_retries") || p.Message["zh-CN"] == "" || n.Message["zh-CN"] == "" {
		t.Fatalf("problem: %+v", p)
	}
	if list := m.Notices().List(); len(list) != 1 || list[0].Kind != runner.NoticeConfigError {
		t.Fatalf("notices in force: %+v", list)
	}
	// A run starts on the last good config; the same mistake is not told twice.
	id, err := m.Start(t.Context(), runner.StartRequest{Task: "go on"})
	if err != nil {
		t.Fatalf("start on a broken edit: %v", err)
	}
	waitEnd(t, m, id)

	if err := os.WriteFile(path, good, 0o600); err != nil {
		t.Fatal(err)
	}
	if n := nextNotice(t, feed, &pending); n.Kind != runner.NoticeConfigReloaded || n.Message["en"] == "" {
		t.Fatalf("notice of the fix: %+v", n)
	}
	if list := m.Notices().List(); len(list) != 0 {
		t.Fatalf("notices in force after the fix: %+v", list)
	}
}

// TestManager_ConfigBrokenFromTheStart: a file that was never good is told
// at once, and a run cannot start on it.
func TestManager_ConfigBrokenFromTheStart(t *testing.T) {
	srv := llmtest.NewServer(t)
	m, home := newManager(t, srv)
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte("[model\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := m.WatchConfig(t.Context()); err != nil {
		t.Fatal(err)
	}
	list := m.Notices().List()
	if len(list) != 1 || list[0].Kind != runner.NoticeConfigError || list[0].Problems[0].Line == 0 {
		t.Fatalf("notices: %+v", list)
	}
	if !strings.Contains(list[0].Message["en"], "no run can start") || !strings.Contains(list[0].Problems[0].Message["zh-CN"], "第 ") {
		t.Fatalf("messages: %+v", list[0])
	}
	if _, err := m.Start(t.Context(), runner.StartRequest{Task: "x"}); err == nil {
		t.Fatal("a run started on a config that was never good")
	}
}

// TestManager_UpdateNotice: with a newer release in the feed, the update
// notice carries its notes in both languages and the download's progress,
// then says it is ready; whether it offers the restart is the caller's.
func TestManager_UpdateNotice(t *testing.T) {
	pub, priv, err := minisign.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	artefact := filepath.Join(dir, "hermes-1.1.0")
	body := make([]byte, 512<<10)
	_, _ = rand.Read(body)
	if err := os.WriteFile(artefact, body, 0o755); err != nil {
		t.Fatal(err)
	}
	platform := runtime.GOOS + "/" + runtime.GOARCH
	art, err := update.SignArtefact(artefact, "1.1.0", platform, update.FormBinary, "bin/hermes", priv)
	if err != nil {
		t.Fatal(err)
	}
	feed := update.Feed{Published: time.Now().UTC()}
	feed.Add(update.Release{Version: "1.1.0", Notes: "Faster search.", NotesZH: "搜索更快。", Platforms: map[string]update.Artefact{platform: art}})
	doc, err := update.SignFeed(feed, priv)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /feed.json", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(doc) })
	mux.HandleFunc("GET /bin/hermes", func(w http.ResponseWriter, r *http.Request) {
		http.ServeContent(w, r, "hermes", time.Time{}, bytes.NewReader(body))
	})
	feedSrv := httptest.NewServer(mux)
	defer feedSrv.Close()

	m, home := newManager(t, llmtest.NewServer(t))
	cfg := "[update]\nfeed_url = \"" + feedSrv.URL + "/feed.json\"\npublic_key = \"" + pub.String() + "\"\n"
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "hermes")
	if err := os.WriteFile(exe, []byte("the running version"), 0o755); err != nil {
		t.Fatal(err)
	}
	notices := m.Notices().Watch()
	defer notices.Close()
	c, err := m.CheckForUpdates(t.Context(), runner.UpdateOptions{Version: "1.0.0", Exe: exe, Restart: true})
	if err != nil || c == nil {
		t.Fatalf("CheckForUpdates = %v, %v", c, err)
	}
	var pending []runner.Notice
	var progress []int64
	for {
		n := nextNotice(t, notices, &pending)
		s := n.Update
		if n.Kind != runner.NoticeUpdate || s == nil || !n.Restart || s.Version != "1.1.0" || s.Notes != "Faster search." || s.NotesZH != "搜索更快。" {
			t.Fatalf("notice: %+v", n)
		}
		if s.State == update.StateFailed {
			t.Fatalf("the update failed: %s", s.Error)
		}
		if s.State == update.StateReady {
			if s.Done != int64(len(body)) || s.Total != int64(len(body)) {
				t.Fatalf("ready at %d of %d", s.Done, s.Total)
			}
			break
		}
		progress = append(progress, s.Done)
	}
	if len(progress) == 0 || progress[0] != 0 {
		t.Fatalf("progress before ready: %v", progress)
	}
	if list := m.Notices().List(); len(list) != 1 || list[0].Update.State != update.StateReady {
		t.Fatalf("notices in force: %+v", list)
	}
}

// TestManager_NoUpdateCheckWhenManual: [update] check = "manual" starts no
// checker and shows nothing.
func TestManager_NoUpdateCheckWhenManual(t *testing.T) {
	m, home := newManager(t, llmtest.NewServer(t))
	cfg := "[update]\nfeed_url = \"https://updates.invalid/feed.json\"\ncheck = \"manual\"\n"
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	if c, err := m.CheckForUpdates(t.Context(), runner.UpdateOptions{Version: "1.0.0"}); c != nil || err != nil {
		t.Fatalf("CheckForUpdates = %v, %v", c, err)
	}
}
