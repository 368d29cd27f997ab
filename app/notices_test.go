package app

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"hermes/backend/runner"
)

// TestApp_NoticesReachTheWindow: the window starts following hermes.toml
// when it opens; a broken edit is listed by Notices and emitted as it
// happens, and a fix is emitted as a reload.
func TestApp_NoticesReachTheWindow(t *testing.T) {
	home := t.TempDir()
	path := filepath.Join(home, "hermes.toml")
	if err := os.WriteFile(path, []byte("[agent]\nmax_iterations = 5\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	a := New(runner.New(runner.Options{Home: home}))
	emitted := make(chan runner.Notice, 8)
	a.startNotices(t.Context(), func(n runner.Notice) { emitted <- n })
	t.Cleanup(a.stopNotices)
	if got := a.Notices(); len(got) != 0 {
		t.Fatalf("notices at start: %+v", got)
	}

	if err := os.WriteFile(path, []byte("[agent]\nmax_iterations = \"five\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	n := <-emitted
	if n.Kind != runner.NoticeConfigError || len(n.Problems) != 1 || n.Problems[0].Line != 2 {
		t.Fatalf("emitted: %+v", n)
	}
	if got := a.Notices(); len(got) != 1 || got[0].Kind != runner.NoticeConfigError {
		t.Fatalf("listed: %+v", got)
	}
	if err := os.WriteFile(path, []byte("[agent]\nmax_iterations = 6\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if n := <-emitted; n.Kind != runner.NoticeConfigReloaded {
		t.Fatalf("emitted: %+v", n)
	}
}

// TestApp_InstallUpdateNeedsAReadyUpdate: the restart button before any
// update was downloaded is refused with a message to wait.
func TestApp_InstallUpdateNeedsAReadyUpdate(t *testing.T) {
	a := New(runner.New(runner.Options{Home: t.TempDir()}))
	a.startNotices(context.Background(), func(runner.Notice) {})
	t.Cleanup(a.stopNotices)
	err := a.InstallUpdate()
	e, ok := err.(runner.APIError)
	if !ok || e.Message["en"] == "" || e.Message["zh-CN"] == "" {
		t.Fatalf("InstallUpdate = %v", err)
	}
}
