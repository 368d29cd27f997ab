package runner_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/event"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runner"
)

// [model] max_output_tokens reaches every request as max_tokens, and
// max_retries = 0 means a failing endpoint is asked once.
func TestManager_ModelLimitsFromConfig(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Step{Status: 500}, llmtest.Step{Status: 500})
	home := t.TempDir()
	toml := fmt.Sprintf("agent = { strategy = \"react\", route = false }\n[model]\nbase_url = %q\nmodel = \"m\"\nmax_retries = 0\nmax_output_tokens = 1000\n", srv.URL)
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	m := runner.New(runner.Options{Home: home, Workspace: t.TempDir(), Getenv: func(k string) string {
		return map[string]string{"OPENAI_API_KEY": "sk-test-key-0123456789"}[k]
	}})
	id, err := m.Start(t.Context(), runner.StartRequest{Task: "look around"})
	if err != nil {
		t.Fatal(err)
	}
	events := waitEnd(t, m, id)
	if last := events[len(events)-1]; last.Type != event.RunFinished || !strings.Contains(string(last.Data), `"status":"failed"`) {
		t.Fatalf("the run ended with %s %s", last.Type, last.Data)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].MaxTokens != 1000 {
		t.Fatalf("the server saw %d requests, want 1 with max_tokens 1000", len(reqs))
	}
}

// A key in the base URL's query string (?api-key=…) stays out of the run's
// events and its error, as the API key does.
func TestManager_BaseURLQueryKeyStaysOutOfEvents(t *testing.T) {
	const secret = "SECRET123456"
	srv := llmtest.NewServer(t)
	home := t.TempDir()
	toml := fmt.Sprintf("agent = { strategy = \"react\", route = false }\n[model]\nbase_url = %q\nmodel = \"m\"\nmax_retries = 0\n", srv.URL+"?api-key="+secret)
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	m := runner.New(runner.Options{Home: home, Workspace: t.TempDir(), Getenv: func(k string) string {
		return map[string]string{"OPENAI_API_KEY": "sk-test-key-0123456789"}[k]
	}})
	id, err := m.Start(t.Context(), runner.StartRequest{Task: "look around"})
	if err != nil {
		if strings.Contains(err.Error(), secret) {
			t.Fatalf("the start error shows the key: %v", err)
		}
		return
	}
	events := waitEnd(t, m, id)
	if last := events[len(events)-1]; last.Type != event.RunFinished || !strings.Contains(string(last.Data), `"status":"failed"`) {
		t.Fatalf("the run ended with %s %s", last.Type, last.Data)
	}
	for _, e := range events {
		if strings.Contains(string(e.Data), secret) {
			t.Errorf("%s shows the key: %s", e.Type, e.Data)
		}
	}
}
