package runner_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runner"
	"hermes/backend/toolbox"
)

// everythingScript is the reference MCP server from the npm registry, which
// scripts/setup.sh installs with npm ci in tests/mcp.
func everythingScript(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed; scripts/setup.sh installs it")
	}
	_, file, _, _ := runtime.Caller(0)
	script := filepath.Join(filepath.Dir(file), "..", "..", "tests", "mcp", "node_modules",
		"@modelcontextprotocol", "server-everything", "dist", "index.js")
	if _, err := os.Stat(script); err != nil {
		t.Fatalf("the MCP test server is not installed (%v); run scripts/setup.sh, or npm ci in tests/mcp", err)
	}
	return script
}

// said is what the model was told of the calls of a run that worked on
// task: every tool message of its requests.
func said(srv *llmtest.Server, task string) string {
	var out []string
	for _, req := range srv.Requests() {
		if !slices.ContainsFunc(req.Messages, func(m llm.Message) bool { return m.Role == llm.RoleUser && strings.Contains(m.Content, task) }) {
			continue
		}
		for _, m := range req.Messages {
			if m.Role == llm.RoleTool {
				out = append(out, m.Content)
			}
		}
	}
	return strings.Join(out, "\n")
}

func skillState(t *testing.T, set *runner.Toolset, name string) string {
	t.Helper()
	for _, s := range set.Skills {
		if s.Name == name {
			return s.Status
		}
	}
	return ""
}

// TestManager_EditedToolsApplyToNewRuns: a process that has run a task
// already is given [obsidian] vault and an MCP server in hermes.toml; the
// next run gets their tools without a restart, the notice and the settings
// say so; a run already going when they are taken away keeps them until it
// ends; a vault folder that is not there is told, and stops new runs.
func TestManager_EditedToolsApplyToNewRuns(t *testing.T) {
	script := everythingScript(t)
	vault := t.TempDir()
	if err := os.WriteFile(filepath.Join(vault, "Budget.md"), []byte("# Budget\n\nThe garden budget is 300 euros.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	hold, started := make(chan struct{}), make(chan struct{})
	var once sync.Once
	srv := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		last := req.Messages[len(req.Messages)-1]
		task := ""
		for _, m := range req.Messages {
			if m.Role == llm.RoleUser && task == "" {
				task = m.Content
			}
		}
		switch {
		case last.Role == llm.RoleTool:
			return llmtest.Step{Content: "Done."}
		case strings.Contains(task, "budget"):
			return llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "s1", Name: "search_notes", Arguments: `{"query":"budget"}`}}}
		case strings.Contains(task, "echo"):
			once.Do(func() { close(started) })
			return llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "e1", Name: "everything_echo", Arguments: `{"message":"still here"}`}}, Wait: hold}
		}
		return llmtest.Step{Content: "Done."}
	})
	home := t.TempDir()
	path := filepath.Join(home, "hermes.toml")
	base := fmt.Sprintf("agent = { strategy = \"react\", route = false }\n[model]\nbase_url = %q\nmodel = \"m\"\n", srv.URL)
	write := func(extra string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(base+extra), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("")
	getenv := func(k string) string { return map[string]string{"OPENAI_API_KEY": "sk-test-key-0123456789"}[k] }
	m := runner.New(runner.Options{Home: home, Workspace: t.TempDir(), Getenv: getenv, Toolkit: runner.OpenWatchedToolkit})
	t.Cleanup(func() { _ = m.Shutdown(t.Context()) })
	if err := m.WatchConfig(t.Context()); err != nil {
		t.Fatal(err)
	}
	feed := m.Notices().Watch()
	defer feed.Close()
	var pending []runner.Notice

	// The toolkit is open: a run has had its tools.
	runTask(t, m, runner.StartRequest{Task: "say done"})

	write(fmt.Sprintf("[obsidian]\nvault = %q\n\n[[tools.mcp]]\nname = \"everything\"\ncommand = \"node\"\nargs = [%q, \"stdio\"]\nrisk = \"read\"\n", vault, script))
	n := nextNotice(t, feed, &pending)
	if n.Kind != runner.NoticeConfigReloaded || !strings.Contains(n.Message["en"], vault) || !strings.Contains(n.Message["en"], "everything (") ||
		!strings.Contains(n.Message["zh-CN"], "笔记库 "+vault) {
		t.Fatalf("the notice of the edit: %+v", n)
	}
	s, err := m.Settings()
	if err != nil {
		t.Fatal(err)
	}
	if s.Tools == nil || s.Tools.Vault != vault || skillState(t, s.Tools, "obsidian") != toolbox.StatusLoaded || skillState(t, s.Tools, "everything") != toolbox.StatusLoaded {
		t.Fatalf("settings after the edit: %+v", s.Tools)
	}

	runTask(t, m, runner.StartRequest{Task: "search my notes for the budget"})
	if got := said(srv, "budget"); !strings.Contains(got, "Budget.md") || strings.Contains(got, "no tool named") {
		t.Fatalf("search_notes in the run after the edit: %q", got)
	}

	// A run under way when the server and the vault are taken away keeps
	// its tools until it ends.
	going, err := m.Start(t.Context(), runner.StartRequest{Task: "echo something"})
	if err != nil {
		t.Fatal(err)
	}
	<-started
	write("")
	if n := nextNotice(t, feed, &pending); n.Kind != runner.NoticeConfigReloaded || !strings.Contains(n.Message["en"], "no vault") || !strings.Contains(n.Message["en"], "no MCP server") {
		t.Fatalf("the notice of the second edit: %+v", n)
	}
	close(hold)
	finished(t, m, going)
	if got := said(srv, "echo something"); !strings.Contains(got, "Echo: still here") {
		t.Fatalf("the run going through the edit lost its MCP server: %q", got)
	}
	if s, err := m.Settings(); err != nil || s.Tools.Vault != "" || skillState(t, s.Tools, "everything") != "" || skillState(t, s.Tools, "obsidian") == toolbox.StatusLoaded {
		t.Fatalf("settings after the second edit: %+v, %v", s.Tools, err)
	}

	// A vault folder that is not there: new runs cannot start, and the
	// notice stays until it is fixed.
	gone := filepath.Join(t.TempDir(), "no-such-vault")
	write(fmt.Sprintf("[obsidian]\nvault = %q\n", gone))
	if n := nextNotice(t, feed, &pending); n.Kind != runner.NoticeConfigError || len(n.Problems) != 1 || !strings.Contains(n.Problems[0].Message["en"], "no-such-vault") {
		t.Fatalf("the notice of a missing vault: %+v", n)
	}
	if _, err := m.Start(t.Context(), runner.StartRequest{Task: "say done"}); err == nil || !strings.Contains(err.Error(), "no-such-vault") {
		t.Fatalf("a run with a missing vault: %v", err)
	}
	if s, err := m.Settings(); err != nil || s.Tools.Error == nil {
		t.Fatalf("settings with a missing vault: %+v, %v", s.Tools, err)
	}
}

// TestManager_SkillsFolderAppliesToNewRuns: a skill added to HOME/skills
// while the process runs is what the next run gets, and a notice says so;
// one removed is gone from the next run.
func TestManager_SkillsFolderAppliesToNewRuns(t *testing.T) {
	srv := llmtest.NewServer(t)
	home := t.TempDir()
	toml := fmt.Sprintf("agent = { strategy = \"react\", route = false }\n[model]\nbase_url = %q\nmodel = \"m\"\n", srv.URL)
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	getenv := func(k string) string { return map[string]string{"OPENAI_API_KEY": "sk-test-key-0123456789"}[k] }
	m := runner.New(runner.Options{Home: home, Workspace: t.TempDir(), Getenv: getenv, Toolkit: runner.OpenWatchedToolkit})
	t.Cleanup(func() { _ = m.Shutdown(t.Context()) })
	feed := m.Notices().Watch()
	defer feed.Close()
	// The New run form's settings open the toolkit, as a run would.
	if _, err := m.Settings(); err != nil {
		t.Fatal(err)
	}
	// told waits for the notice of a change of HOME/skills that says want: a
	// burst of writes may settle into more than one.
	told := func(want string) {
		t.Helper()
		timeout := time.After(10 * time.Second)
		for {
			select {
			case <-feed.Ready():
				for _, n := range feed.Take() {
					if n.ID == "skills" && strings.Contains(n.Message["en"], want) {
						return
					}
				}
			case <-timeout:
				t.Fatalf("no notice of HOME/skills saying %q", want)
			}
		}
	}
	dir := filepath.Join(home, "skills", "howto")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: howto\ndescription: Rules.\n---\nBe brief.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	told("howto")
	if s, err := m.Settings(); err != nil || skillState(t, s.Tools, "howto") != toolbox.StatusLoaded {
		t.Fatalf("settings after the skill was added: %+v, %v", s.Tools, err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	told("the skills files, shell;")
	if s, err := m.Settings(); err != nil || skillState(t, s.Tools, "howto") != "" {
		t.Fatalf("settings after the skill was removed: %+v, %v", s.Tools, err)
	}
}
