package runner_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runner"
)

// vaultHome is a home whose model is srv and whose [obsidian] vault is a
// real folder of notes; it returns the Manager and the home.
func vaultHome(t *testing.T, srv *llmtest.Server) (*runner.Manager, string) {
	t.Helper()
	home, vault := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(vault, "Lantern.md"), []byte("# Lantern\n\nA paper lantern for the garden party.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	toml := fmt.Sprintf("agent = { strategy = \"react\", route = false }\n[model]\nbase_url = %q\nmodel = \"m\"\n[obsidian]\nvault = %q\n", srv.URL, vault)
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	getenv := func(k string) string { return map[string]string{"OPENAI_API_KEY": "sk-test-key-0123456789"}[k] }
	m := runner.New(runner.Options{Home: home, Workspace: t.TempDir(), Getenv: getenv, Toolkit: runner.OpenToolkit})
	t.Cleanup(func() { m.Shutdown(t.Context()) })
	return m, home
}

func toolNames(req llmtest.Request) []string {
	var names []string
	for _, d := range req.Tools {
		names = append(names, d.Name)
	}
	return names
}

// runTask starts req and waits for the run to finish; it returns its id.
func runTask(t *testing.T, m *runner.Manager, req runner.StartRequest) string {
	t.Helper()
	id, err := m.Start(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	finished(t, m, id)
	return id
}

func finished(t *testing.T, m *runner.Manager, id string) {
	t.Helper()
	events := waitEnd(t, m, id)
	if last := events[len(events)-1]; !strings.Contains(string(last.Data), `"status":"finished"`) {
		t.Fatalf("run %s ended with %s %s", id, last.Type, last.Data)
	}
}

// TestRun_VaultToolsOfferedWhenTheTaskIsAboutNotes: with a vault set, a
// task that says nothing of notes is sent without the seven vault tools'
// schemas (load_skill offers them by name) and never opens the vault; a
// task about notes is sent them from its first request.
func TestRun_VaultToolsOfferedWhenTheTaskIsAboutNotes(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Step{Content: "done"}, llmtest.Step{Content: "done"}, llmtest.Step{Content: "done"})
	m, home := vaultHome(t, srv)

	runTask(t, m, runner.StartRequest{Task: "say done"})
	first := toolNames(srv.Requests()[0])
	if slices.Contains(first, "search_notes") || !slices.Contains(first, "load_skill") || !slices.Contains(first, "read_file") {
		t.Fatalf("a task about nothing in the notes was offered %v", first)
	}
	if !strings.Contains(srv.Requests()[0].Tools[slices.Index(first, "load_skill")].Description, "obsidian:") {
		t.Fatal("load_skill does not name the obsidian skill")
	}
	if _, err := os.Stat(filepath.Join(home, "index")); !os.IsNotExist(err) {
		t.Fatalf("the vault was opened by a run that never called a vault tool: %v", err)
	}

	runTask(t, m, runner.StartRequest{Task: "Find my notes about the garden party"})
	if second := toolNames(srv.Requests()[1]); !slices.Contains(second, "search_notes") || !slices.Contains(second, "create_note") {
		t.Fatalf("a task about notes was offered %v", second)
	}

	// Standing instructions count as the task does.
	runTask(t, m, runner.StartRequest{Task: "say done", Instructions: "You keep my journal."})
	if third := toolNames(srv.Requests()[2]); !slices.Contains(third, "search_notes") {
		t.Fatalf("a run whose instructions are about the journal was offered %v", third)
	}
}

// TestRun_VaultToolsAddedWhenTheModelAsks: a task about the notes that
// uses none of the skill's words starts without the vault tools; the model
// loads the skill, is offered them from the next request, and searches the
// real vault. A fork of that run, whose conversation called a vault tool,
// is offered them from its first request whatever its task says.
func TestRun_VaultToolsAddedWhenTheModelAsks(t *testing.T) {
	srv := llmtest.NewServer(t,
		llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "c1", Name: "load_skill", Arguments: `{"name":"obsidian"}`}}},
		llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "c2", Name: "search_notes", Arguments: `{"query":"lantern"}`}}},
		llmtest.Step{Content: "You wrote about a paper lantern."},
		llmtest.Step{Content: "A paper lantern."},
	)
	m, _ := vaultHome(t, srv)
	id := runTask(t, m, runner.StartRequest{Task: "What did I write down about lanterns?"})

	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	if slices.Contains(toolNames(reqs[0]), "search_notes") {
		t.Fatalf("first request offered %v", toolNames(reqs[0]))
	}
	if got := toolNames(reqs[1]); !slices.Contains(got, "search_notes") || !slices.Contains(got, "append_note") {
		t.Fatalf("after load_skill the request offered %v", got)
	}
	last := reqs[2].Messages[len(reqs[2].Messages)-1]
	if last.Role != llm.RoleTool || !strings.Contains(last.Content, "Lantern.md") {
		t.Fatalf("search_notes answered %q", last.Content)
	}

	fork, err := m.Fork(t.Context(), id, runner.ForkRequest{Iteration: 3, Task: "Say it shorter"})
	if err != nil {
		t.Fatal(err)
	}
	finished(t, m, fork)
	if got := toolNames(srv.Requests()[3]); !slices.Contains(got, "search_notes") {
		t.Fatalf("the fork was offered %v", got)
	}
}
