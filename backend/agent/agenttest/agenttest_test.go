package agenttest_test

import (
	"strings"
	"testing"

	"hermes/backend/agent"
	"hermes/backend/agent/agenttest"
	"hermes/backend/config"
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
)

// A home's run reads its workspace through the real file tools, reaches the
// model that hermes.toml names with the key, and its log never holds the
// key, even where the model repeats it.
func TestHome_RunsThroughTheRealParts(t *testing.T) {
	srv := llmtest.NewServer(t,
		llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "c1", Name: "read_file", Arguments: `{"path":"notes/a.txt"}`}}},
		llmtest.Step{Content: "It says buy milk; the key was " + agenttest.Key},
	)
	h := agenttest.New(t, srv, agenttest.Options{Files: map[string]string{"notes/a.txt": "buy milk"}})
	cfg, err := config.Load(config.Path(h.Dir))
	if err != nil || cfg.Model.BaseURL != srv.URL {
		t.Fatalf("hermes.toml names %q (%v), want the scripted model %q", cfg.Model.BaseURL, err, srv.URL)
	}
	_, res, events := h.Run(t.Context(), agent.Task{Text: "What does notes/a.txt say?"})
	if res.Status != event.StatusFinished || !strings.Contains(res.Answer, "buy milk") {
		t.Fatalf("the run ended %s: %q", res.Status, res.Answer)
	}
	for _, e := range events {
		if strings.Contains(string(e.Data), agenttest.Key) {
			t.Fatalf("%s holds the key", e.Type)
		}
	}
	if reqs := srv.Requests(); len(reqs) != 2 {
		t.Fatalf("the model got %d requests, want 2", len(reqs))
	}
}
