package app

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"hermes/backend/host"
	"hermes/backend/runner"
)

// openHome opens home as the window does, and closes it when the test
// ends.
func openHome(t *testing.T, home string) *host.Host {
	t.Helper()
	h, err := host.Open(t.Context(), home, host.Desktop, host.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close(context.Background()) })
	return h
}

// TestApp_AttachedWindowHasNoNotices: a window attached to the owner has
// no notices of its own; the owner's are the owner's to show.
func TestApp_AttachedWindowHasNoNotices(t *testing.T) {
	home := t.TempDir()
	openHome(t, home)
	a := New(openHome(t, home))
	a.startNotices(t.Context(), func(runner.Notice) { t.Error("an attached window was sent a notice") })
	t.Cleanup(a.stopNotices)
	if got := a.Notices(); len(got) != 0 {
		t.Fatalf("notices: %+v", got)
	}
}

// TestApp_NoticesReachTheWindow: the window starts following hermes.toml
// when it opens; a broken edit is listed by Notices and emitted as it
// happens, and a fix is emitted as a reload.
func TestApp_NoticesReachTheWindow(t *testing.T) {
	home := t.TempDir()
	path := filepath.Join(home, "hermes.toml")
	if err := os.WriteFile(path, []byte("[agent]\nmax_iterations = 5\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	a := New(openHome(t, home))
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
	a := New(openHome(t, t.TempDir()))
	a.startNotices(context.Background(), func(runner.Notice) {})
	t.Cleanup(a.stopNotices)
	err := a.InstallUpdate()
	e, ok := err.(runner.APIError)
	if !ok || e.Message["en"] == "" || e.Message["zh-CN"] == "" {
		t.Fatalf("InstallUpdate = %v", err)
	}
}
