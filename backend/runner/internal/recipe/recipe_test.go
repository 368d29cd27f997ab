package recipe

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hermes/backend/config"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runner"
	"hermes/backend/toolbox"
)

// TestRecipe_APairIsOfferedEverywhere: count_words, one .go file and one
// .md, is offered by the catalog and so sent to a run and called there, and
// is among the tools of a run built without a toolkit (runner.Build), which
// the context preview counts too (runner's TestPreview_CountsEveryRunsTools).
func TestRecipe_APairIsOfferedEverywhere(t *testing.T) {
	want := strings.TrimSuffix(countWordsMD, "\n")
	called := make(chan llmtest.Request, 1)
	srv := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		last := req.Messages[len(req.Messages)-1]
		if last.Role == llm.RoleTool {
			called <- req
			return llmtest.Step{Content: "three"}
		}
		return llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "c1", Name: "count_words", Arguments: `{"text":"one two three"}`}}}
	})
	home := t.TempDir()
	toml := fmt.Sprintf("agent = { strategy = \"react\", route = false }\n[model]\nbase_url = %q\nmodel = \"m\"\n", srv.URL)
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	getenv := func(k string) string { return map[string]string{"OPENAI_API_KEY": "sk-test-key-0123456789"}[k] }

	m := runner.New(runner.Options{Home: home, Workspace: t.TempDir(), Getenv: getenv, Toolkit: runner.OpenToolkit})
	t.Cleanup(func() { m.Shutdown(t.Context()) })
	if _, err := m.Start(t.Context(), runner.StartRequest{Task: "how many words are in one two three?"}); err != nil {
		t.Fatal(err)
	}
	req := <-called
	i := slices.IndexFunc(req.Tools, func(d llm.ToolDef) bool { return d.Name == "count_words" })
	if i < 0 || req.Tools[i].Description != want {
		t.Fatalf("the run was not sent count_words as count_words.md says: %+v", req.Tools)
	}
	if got := req.Messages[len(req.Messages)-1].Content; got != "3 words" {
		t.Fatalf("count_words answered %q", got)
	}

	cfg, err := config.Load(filepath.Join(home, "hermes.toml"))
	if err != nil {
		t.Fatal(err)
	}
	setup, err := runner.Build(t.Context(), home, cfg, getenv, runner.Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	if tool, ok := setup.Tools.Get("count_words"); !ok || tool.Description != want {
		t.Fatalf("a run built without a toolkit has %v", setup.Tools.Names())
	}
	if names := setup.Tools.Names(); names[len(names)-1] != "count_words" {
		t.Fatalf("count_words is not after the tools files' skill.json lists: %v", names)
	}
	if i := slices.IndexFunc(toolbox.Builtins(toolbox.With{}, toolbox.SkillFiles), func(t toolbox.Tool) bool { return t.Name == "count_words" }); i < 0 {
		t.Fatal("Builtins(files) leaves count_words out")
	}
}
