package runner_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runner"
	"hermes/backend/store"
)

// newManager runs a home whose model is srv and whose workspace is ws.
func newManager(t *testing.T, srv *llmtest.Server) (*runner.Manager, string) {
	t.Helper()
	home := t.TempDir()
	// The scripted models answer turn by turn, so runs act and observe
	// without routing or planning calls.
	toml := fmt.Sprintf("agent = { strategy = \"react\", route = false }\n[model]\nbase_url = %q\nmodel = \"m\"\n", srv.URL)
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	return runner.New(runner.Options{Home: home, Workspace: t.TempDir(), Getenv: func(k string) string { return map[string]string{"OPENAI_API_KEY": "sk-test-key-0123456789"}[k] }}), home
}

// waitEnd follows a run's events until its leg is over.
func waitEnd(t *testing.T, m *runner.Manager, id string) []event.Event {
	t.Helper()
	w, err := m.Watch(id, 0)
	if err != nil {
		t.Fatal(err)
	}
	var all []event.Event
	for {
		events, more := w.Next()
		all = append(all, events...)
		if more == nil {
			return all
		}
		<-more
	}
}

// TestManager_ShutdownPastItsDeadline: a run that cannot reach a safe point
// before Shutdown's deadline (here, one already passed) is cancelled, keeps
// its last checkpoint, and lets go of the database; no run starts after.
// (cli's TestServe_StopsLiveRunsAtASafePoint covers the stop in time.)
func TestManager_ShutdownPastItsDeadline(t *testing.T) {
	never := make(chan struct{})
	srv := llmtest.NewServer(t,
		llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "c1", Name: "list_files", Arguments: "{}"}}, Wait: never},
	)
	m, home := newManager(t, srv)
	id, err := m.Start(t.Context(), runner.StartRequest{Task: "look around"})
	if err != nil {
		t.Fatal(err)
	}
	// While a run is live the database is held, so no other process can
	// resume the run at the same time.
	if _, err := store.Open(filepath.Join(home, "hermes.db")); !errors.Is(err, store.ErrLocked) {
		t.Fatalf("opening the database of a live run: %v", err)
	}
	passed, cancel := context.WithCancel(t.Context())
	cancel()
	if err := m.Shutdown(passed); !errors.Is(err, context.Canceled) {
		t.Fatalf("Shutdown = %v", err)
	}
	if len(m.Live()) != 0 {
		t.Fatal("a run is still live after Shutdown")
	}
	events := waitEnd(t, m, id)
	if last := events[len(events)-1]; last.Type != event.RunFinished || !strings.Contains(string(last.Data), `"status":"stopped"`) {
		t.Fatalf("the run ended with %s %s", last.Type, last.Data)
	}
	store, err := store.Open(filepath.Join(home, "hermes.db"))
	if err != nil {
		t.Fatalf("the database is still held: %v", err)
	}
	_, _, err = store.LoadCheckpoint(id)
	store.Close()
	if err != nil {
		t.Fatalf("no checkpoint: %v", err)
	}
	if _, err := m.Start(t.Context(), runner.StartRequest{Task: "more"}); !errors.Is(err, runner.ErrClosed) {
		t.Fatalf("a start after shutdown: %v", err)
	}
}
