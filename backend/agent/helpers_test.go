package agent_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hermes/backend/agent"
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/longterm"
	"hermes/backend/runlog"
	"hermes/backend/skills"
	"hermes/backend/store"
)

// testKey is the API key of every test; no log, event or error may hold it.
const testKey = "sk-test-7f3a9c1e5b2d4f6a8c0e"

// harness is one test's home directory, store, tools and model.
type harness struct {
	t      *testing.T
	home   string
	ws     string
	server *llmtest.Server
	setup  agent.Setup
}

func newHarness(t *testing.T, server *llmtest.Server, extra ...skills.Tool) *harness {
	t.Helper()
	home := t.TempDir()
	ws := t.TempDir()
	store, err := store.Open(filepath.Join(home, "hermes.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	reg := skills.NewRegistry()
	for _, tool := range append(skills.FileTools(), extra...) {
		if err := reg.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
	client := llm.New(llm.Config{
		BaseURL: server.URL, APIKey: testKey, Model: "test-model", Stream: true,
		MaxRetries: 3, Backoff: func(int) time.Duration { return 0 },
	})
	return &harness{t: t, home: home, ws: ws, server: server, setup: agent.Setup{
		Home: home, Store: store, LongTerm: longterm.New(store), Bus: event.NewBus(), Redactor: runlog.NewRedactor(testKey),
		Model: client, ModelName: "test-model", BaseURL: server.URL, Tools: reg,
	}}
}

func (h *harness) write(name, content string) {
	h.t.Helper()
	if err := os.WriteFile(filepath.Join(h.ws, name), []byte(content), 0o644); err != nil {
		h.t.Fatal(err)
	}
}

// run executes task to its end and returns the result and the run's log.
func (h *harness) run(task string) (agent.Result, []event.Event) {
	h.t.Helper()
	r, err := agent.NewRun(h.setup, agent.Task{Text: task, Workspace: h.ws})
	if err != nil {
		h.t.Fatal(err)
	}
	return h.execute(r, h.t.Context())
}

func (h *harness) execute(r *agent.Run, ctx context.Context) (agent.Result, []event.Event) {
	h.t.Helper()
	res := r.Execute(ctx)
	events, err := runlog.ReadFile(r.LogPath())
	if err != nil {
		h.t.Fatal(err)
	}
	checkSeq(h.t, events)
	return res, events
}

// checkSeq asserts the log numbers its events 1, 2, 3… with no gap or repeat.
func checkSeq(t *testing.T, events []event.Event) {
	t.Helper()
	for i, e := range events {
		if e.Seq != int64(i+1) {
			t.Fatalf("event %d (%s) has seq %d", i, e.Type, e.Seq)
		}
	}
}

func ofType(events []event.Event, typ event.Type) []event.Event {
	var out []event.Event
	for _, e := range events {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

func decode[T any](t *testing.T, e event.Event) T {
	t.Helper()
	v, err := event.Decode[T](e)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func finished(t *testing.T, events []event.Event) event.RunFinishedData {
	t.Helper()
	fin := ofType(events, event.RunFinished)
	if len(fin) == 0 {
		t.Fatal("no run.finished event")
	}
	return decode[event.RunFinishedData](t, fin[len(fin)-1])
}

func guards(t *testing.T, events []event.Event) []event.GuardTrippedData {
	var out []event.GuardTrippedData
	for _, e := range ofType(events, event.GuardTripped) {
		out = append(out, decode[event.GuardTrippedData](t, e))
	}
	return out
}

func toolResults(t *testing.T, events []event.Event) []event.ToolFinishedData {
	var out []event.ToolFinishedData
	for _, e := range ofType(events, event.ToolFinished) {
		out = append(out, decode[event.ToolFinishedData](t, e))
	}
	return out
}

// lastMessages returns the messages of the i-th request the model received.
func (h *harness) request(i int) []llm.Message {
	h.t.Helper()
	reqs := h.server.Requests()
	if i >= len(reqs) {
		h.t.Fatalf("the model got %d requests, want at least %d", len(reqs), i+1)
	}
	return reqs[i].Messages
}

func call(id, name string, args any) llm.ToolCall {
	s, ok := args.(string)
	if !ok {
		b, _ := json.Marshal(args)
		s = string(b)
	}
	return llm.ToolCall{ID: id, Name: name, Arguments: s}
}

func contains(msgs []llm.Message, role, text string) bool {
	for _, m := range msgs {
		if m.Role == role && strings.Contains(m.Content, text) {
			return true
		}
	}
	return false
}
