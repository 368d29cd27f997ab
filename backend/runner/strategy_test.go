package runner_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"hermes/backend/config"
	"hermes/backend/event"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runner"
)

// TestStart_StrategyFromTheForm: the New-run form's strategy replaces
// [agent] strategy for that run: a home set to plan runs a react run that
// answers at once, without a plan; a strategy that is neither is refused
// before the run starts.
func TestStart_StrategyFromTheForm(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Step{Content: "done"})
	m, home := newManager(t, srv)
	toml := fmt.Sprintf("agent = { strategy = \"plan\", route = false }\n[model]\nbase_url = %q\nmodel = \"m\"\n", srv.URL)
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Start(t.Context(), runner.StartRequest{Task: "say done", Strategy: "bogus"}); !errors.Is(err, config.ErrInvalid) {
		t.Fatalf("a bogus strategy: %v", err)
	}
	id, err := m.Start(t.Context(), runner.StartRequest{Task: "say done", Strategy: "react"})
	if err != nil {
		t.Fatal(err)
	}
	events := waitEnd(t, m, id)
	for _, e := range events {
		if e.Type == event.PlanCreated {
			t.Fatalf("a react run made a plan: %s", e.Data)
		}
	}
	if last := events[len(events)-1]; last.Type != event.RunFinished {
		t.Fatalf("the run ended with %s %s", last.Type, last.Data)
	}
	t.Cleanup(func() { _ = m.Shutdown(t.Context()) })
}
