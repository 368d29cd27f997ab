// Package agenttest runs tasks through the real loop, for the agent's
// tests, the sample recorder (backend/runner/sample/gen) and the task suite
// (bench/tasks): a home in a temporary directory with its hermes.toml and
// hermes.db, the real file tools in a workspace, and a model that llmtest
// scripts on loopback, reached through the real client. Nothing in it
// stands in for a part of Hermes; it only wires them.
package agenttest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"hermes/backend/agent"
	"hermes/backend/config"
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/longterm"
	"hermes/backend/runlog"
	"hermes/backend/store"
	"hermes/backend/toolbox"
)

// Key is the API key of a scripted run unless Options name another. No log,
// event or error may hold it.
const Key = "sk-test-7f3a9c1e5b2d4f6a8c0e"

// Options say how a home is set up. The zero value is a home with the file
// tools, the model "test-model" and Key.
type Options struct {
	Key   string
	Model string
	// Tools are registered besides the file tools.
	Tools []toolbox.Tool
	// Files are the workspace before the run, by slash-separated path.
	Files map[string]string
}

// Home is one scripted run's home: its directory (hermes.toml, hermes.db,
// the logs), the workspace, the scripted model and the Setup a run gets.
// Change Setup before Start to give runs other limits, a strategy, a policy.
type Home struct {
	tb        testing.TB
	Dir       string
	Workspace string
	Server    *llmtest.Server
	Store     *store.Store
	Setup     agent.Setup
}

// New makes a home in tb's temporary directories, for runs that server
// plays the model of. hermes.toml names the server's endpoint and model; the
// key comes as OPENAI_API_KEY would, so it is one of the secrets the
// redactor keeps out of every event. The store is closed when tb ends.
func New(tb testing.TB, server *llmtest.Server, o Options) *Home {
	tb.Helper()
	if o.Key == "" {
		o.Key = Key
	}
	if o.Model == "" {
		o.Model = "test-model"
	}
	h := &Home{tb: tb, Dir: tb.TempDir(), Workspace: tb.TempDir(), Server: server}
	for name, content := range o.Files {
		h.Write(name, content)
	}
	toml := fmt.Sprintf("[model]\nbase_url = %q\nmodel = %q\nmax_retries = 3\n", server.URL, o.Model)
	if err := os.WriteFile(config.Path(h.Dir), []byte(toml), 0o600); err != nil {
		tb.Fatal(err)
	}
	cfg, err := config.Load(config.Path(h.Dir))
	if err != nil {
		tb.Fatal(err)
	}
	getenv := func(name string) string {
		if name == "OPENAI_API_KEY" {
			return o.Key
		}
		return ""
	}
	m, _ := cfg.Model.At("", getenv)
	st, err := store.Open(filepath.Join(h.Dir, "hermes.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = st.Close() })
	h.Store = st
	tools := toolbox.NewRegistry()
	for _, tool := range append(toolbox.FileTools(nil), o.Tools...) {
		if err := tools.Register(tool); err != nil {
			tb.Fatal(err)
		}
	}
	h.Setup = agent.Setup{
		Home: h.Dir, Store: st, LongTerm: longterm.New(st), Bus: event.NewBus(),
		Redactor: runlog.NewRedactor(cfg.Secrets(getenv)...),
		// No backoff: the script's retries need not wait.
		Model: llm.New(llm.Config{
			BaseURL: m.BaseURL, APIKey: m.APIKey, Model: m.Model, Stream: true,
			MaxRetries: cfg.Model.MaxRetries, Backoff: func(int) time.Duration { return 0 },
		}),
		ModelName: m.Model, BaseURL: m.BaseURL, Tools: tools,
	}
	return h
}

// Write puts a file in the workspace.
func (h *Home) Write(name, content string) {
	h.tb.Helper()
	p := filepath.Join(h.Workspace, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		h.tb.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		h.tb.Fatal(err)
	}
}

// Start makes a run of task with Setup; a task that names no workspace works
// in the home's.
func (h *Home) Start(task agent.Task) *agent.Run {
	h.tb.Helper()
	if task.Workspace == "" {
		task.Workspace = h.Workspace
	}
	r, err := agent.NewRun(h.Setup, task)
	if err != nil {
		h.tb.Fatal(err)
	}
	return r
}

// Execute runs r to its end and returns how it ended and its log, whose
// events it checks are numbered 1, 2, 3… with no gap or repeat.
func (h *Home) Execute(ctx context.Context, r *agent.Run) (agent.Result, []event.Event) {
	h.tb.Helper()
	res := r.Execute(ctx)
	events, err := runlog.ReadFile(r.LogPath())
	if err != nil {
		h.tb.Fatal(err)
	}
	for i, e := range events {
		if e.Seq != int64(i+1) {
			h.tb.Fatalf("event %d (%s) has seq %d", i, e.Type, e.Seq)
		}
	}
	return res, events
}

// Run starts task and runs it to its end (Start, then Execute).
func (h *Home) Run(ctx context.Context, task agent.Task) (*agent.Run, agent.Result, []event.Event) {
	h.tb.Helper()
	r := h.Start(task)
	res, events := h.Execute(ctx, r)
	return r, res, events
}
