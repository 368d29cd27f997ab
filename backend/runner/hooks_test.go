package runner_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"hermes/backend/agent"
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runner"
	"hermes/backend/store"
	"hermes/backend/toolbox"
)

// recorder is a sink that keeps what it is given.
type recorder struct {
	mu     sync.Mutex
	events []event.Event
}

func (r *recorder) Write(e event.Event) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
	return nil
}

// TestManager_StartSetupWithAHeldStore: a run started with the caller's own
// setup (as the bot starts its chat tasks) is tracked like any other — the
// caller's sink gets every event in order, Done gets the result — and a
// database the caller holds stays open through the run and the shutdown.
func TestManager_StartSetupWithAHeldStore(t *testing.T) {
	srv := llmtest.NewServer(t,
		llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "c1", Name: "list_files", Arguments: `{"path":"."}`}}},
		llmtest.Step{Content: "Nothing here."},
	)
	home := t.TempDir()
	store, err := store.Open(filepath.Join(home, "hermes.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	m := runner.New(runner.Options{Home: home, Store: store})
	tools := toolbox.NewRegistry()
	for _, tool := range toolbox.FileTools(nil) {
		if err := tools.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
	setup := agent.Setup{
		Home: home, Tools: tools, ModelName: "m", BaseURL: srv.URL,
		Model: llm.New(llm.Config{BaseURL: srv.URL, APIKey: "sk-test-key-0123456789", Model: "m", Stream: true}),
	}
	rec := &recorder{}
	done := make(chan agent.Result, 1)
	id, err := m.StartSetup(setup, agent.Task{Text: "what is here?", Workspace: t.TempDir()}, runner.Hooks{
		Sink: rec, Done: func(res agent.Result) { done <- res },
	})
	if err != nil {
		t.Fatal(err)
	}
	watched := waitEnd(t, m, id)
	res := <-done
	if res.RunID != id || res.Status != event.StatusFinished || res.Answer != "Nothing here." {
		t.Fatalf("Done got %+v", res)
	}
	rec.mu.Lock()
	got := slices.Clone(rec.events)
	rec.mu.Unlock()
	if len(got) == 0 || len(got) != len(watched) {
		t.Fatalf("the sink got %d events, the watcher %d", len(got), len(watched))
	}
	for i := range got {
		if got[i].Seq != watched[i].Seq || got[i].Type != watched[i].Type {
			t.Fatalf("event %d: the sink got %s #%d, the watcher %s #%d", i, got[i].Type, got[i].Seq, watched[i].Type, watched[i].Seq)
		}
	}
	if got[len(got)-1].Type != event.RunFinished {
		t.Errorf("the sink's last event is %s", got[len(got)-1].Type)
	}

	if err := m.Shutdown(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := store.SaveBotSession("wecom/alice", []byte(`{}`)); err != nil {
		t.Errorf("the held database was closed under its holder: %v", err)
	}
	if state, _, err := store.LoadCheckpoint(id); err != nil || state == nil {
		t.Errorf("the run's checkpoint is not in the held database: %d bytes, %v", len(state), err)
	}
}

// TestManager_AnswerNamesNoQuestion: an answer without a question id
// answers the open one (docs/api.md), so the control is taken.
func TestManager_AnswerNamesNoQuestion(t *testing.T) {
	hold := make(chan struct{})
	srv := llmtest.NewServer(t, llmtest.Step{Content: "Done.", Wait: hold})
	m, _ := newManager(t, srv)
	id, err := m.Start(t.Context(), runner.StartRequest{Task: "wait"})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Control(id, agent.Control{Kind: agent.ControlAnswer, Text: "ORD-7731"}); err != nil {
		t.Errorf("an answer without a question id: %v", err)
	}
	close(hold)
	waitEnd(t, m, id)
}

// TestManager_ToolsPolicyEditAppliesToTheNextRun: an edit of the [tools]
// policy in hermes.toml applies to the runs started after it, without a
// restart of the process whose toolkit is open.
func TestManager_ToolsPolicyEditAppliesToTheNextRun(t *testing.T) {
	srv := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		last := req.Messages[len(req.Messages)-1]
		if last.Role == llm.RoleTool {
			return llmtest.Step{Content: "saw: " + last.Content}
		}
		return llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "c1", Name: "list_files", Arguments: `{"path":"."}`}}}
	})
	home := t.TempDir()
	write := func(tools string) {
		toml := fmt.Sprintf("agent = { strategy = \"react\", route = false }\n[model]\nbase_url = %q\nmodel = \"m\"\n%s", srv.URL, tools)
		if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte(toml), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("")
	m := runner.New(runner.Options{
		Home: home, Workspace: t.TempDir(), Toolkit: runner.OpenToolkit,
		Getenv: func(k string) string { return map[string]string{"OPENAI_API_KEY": "sk-test-key-0123456789"}[k] },
	})
	defer m.Shutdown(t.Context())
	answer := func() string {
		id, err := m.Start(t.Context(), runner.StartRequest{Task: "list the files"})
		if err != nil {
			t.Fatal(err)
		}
		events := waitEnd(t, m, id)
		d, err := event.Decode[event.RunFinishedData](events[len(events)-1])
		if err != nil {
			t.Fatal(err)
		}
		return d.Answer
	}
	if got := answer(); strings.Contains(got, "not allowed") {
		t.Fatalf("before the edit: %q", got)
	}
	write("[tools]\ndeny = [\"list_files\"]\n")
	if got := answer(); !strings.Contains(got, "not allowed by the user's policy") {
		t.Fatalf("after the edit the call was not denied: %q", got)
	}
}
