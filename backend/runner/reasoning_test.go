package runner_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runner"
)

// [model] send_reasoning reaches the client: the model's reasoning goes
// back with its tool calls when the setting (or, on auto, the provider)
// asks for it, and not otherwise.
func TestManager_SendReasoningFromConfig(t *testing.T) {
	for _, tt := range []struct {
		setting, model string
		want           bool
	}{
		{"", "m", false},
		{"always", "m", true},
		{"auto", "glm-4.6", true},
		{"never", "glm-4.6", false},
	} {
		t.Run(tt.setting+" "+tt.model, func(t *testing.T) {
			srv := llmtest.NewServer(t,
				llmtest.Step{Reasoning: "List the workspace first.", ToolCalls: []llm.ToolCall{{ID: "call_1", Name: "list_files", Arguments: `{}`}}},
				llmtest.Step{Content: "It is empty."},
			)
			home := t.TempDir()
			toml := fmt.Sprintf("agent = { strategy = \"react\", route = false }\n[model]\nbase_url = %q\nmodel = %q\n", srv.URL, tt.model)
			if tt.setting != "" {
				toml += fmt.Sprintf("send_reasoning = %q\n", tt.setting)
			}
			if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte(toml), 0o600); err != nil {
				t.Fatal(err)
			}
			m := runner.New(runner.Options{Home: home, Workspace: t.TempDir(), Getenv: func(k string) string {
				return map[string]string{"OPENAI_API_KEY": "sk-test-key-0123456789"}[k]
			}})
			id, err := m.Start(t.Context(), runner.StartRequest{Task: "list the workspace"})
			if err != nil {
				t.Fatal(err)
			}
			waitEnd(t, m, id)
			reqs := srv.Requests()
			if len(reqs) != 2 {
				t.Fatalf("the server saw %d requests, want 2", len(reqs))
			}
			msgs := reqs[1].Messages
			assistant := msgs[len(msgs)-2]
			if len(assistant.ToolCalls) != 1 || (assistant.Reasoning != "") != tt.want {
				t.Fatalf("assistant turn sent as %+v; reasoning sent: want %v", assistant, tt.want)
			}
		})
	}
}
