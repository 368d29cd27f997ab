package runner_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"hermes/backend/llm/llmtest"
	"hermes/backend/runner"
)

// [agent.top_p] reaches the request of its stage, and a request whose stage
// has none set carries no top_p at all, so the provider's default applies.
func TestManager_TopPFromConfig(t *testing.T) {
	for _, tt := range []struct {
		name, section string
		want          *float64
	}{
		{"unset", "", nil},
		{"decide", "[agent.top_p]\ndecide = 0.9\n", ptr(0.9)},
		{"another stage", "[agent.top_p]\nanswer = 0.5\n", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, llmtest.Step{Content: "Done."})
			home := t.TempDir()
			toml := fmt.Sprintf("[agent]\nstrategy = \"react\"\nroute = false\n%s[model]\nbase_url = %q\nmodel = \"m\"\n", tt.section, srv.URL)
			if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte(toml), 0o600); err != nil {
				t.Fatal(err)
			}
			m := runner.New(runner.Options{Home: home, Workspace: t.TempDir(), Getenv: func(k string) string {
				return map[string]string{"OPENAI_API_KEY": "sk-test-key-0123456789"}[k]
			}})
			id, err := m.Start(t.Context(), runner.StartRequest{Task: "say done"})
			if err != nil {
				t.Fatal(err)
			}
			waitEnd(t, m, id)
			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("the server saw %d requests, want 1", len(reqs))
			}
			got := reqs[0].TopP
			if (got == nil) != (tt.want == nil) || got != nil && float32(*got) != float32(*tt.want) {
				t.Fatalf("top_p sent = %v, want %v", deref(got), deref(tt.want))
			}
			if reqs[0].Temperature == nil {
				t.Fatal("the stage's temperature was not sent beside top_p")
			}
		})
	}
}

func ptr(v float64) *float64 { return &v }

func deref(p *float64) any {
	if p == nil {
		return "none"
	}
	return *p
}
