package agent_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"hermes/backend/agent"
	"hermes/backend/agent/agenttest"
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/toolbox"
)

// testKey is the API key of every test; no log, event or error may hold it.
const testKey = agenttest.Key

// harness is one test's home: agenttest's, with a Setup the test changes
// before it starts a run.
type harness struct {
	t        *testing.T
	home     string
	ws       string
	server   *llmtest.Server
	setup    agent.Setup
	scripted *agenttest.Home
}

func newHarness(t *testing.T, server *llmtest.Server, extra ...toolbox.Tool) *harness {
	t.Helper()
	h := agenttest.New(t, server, agenttest.Options{Tools: extra})
	return &harness{t: t, home: h.Dir, ws: h.Workspace, server: server, setup: h.Setup, scripted: h}
}

func (h *harness) write(name, content string) { h.scripted.Write(name, content) }

// run executes task to its end, with the Setup as the test left it, and
// returns the result and the run's log.
func (h *harness) run(task string) (agent.Result, []event.Event) {
	h.t.Helper()
	h.scripted.Setup = h.setup
	_, res, events := h.scripted.Run(h.t.Context(), agent.Task{Text: task, Workspace: h.ws})
	return res, events
}

func (h *harness) execute(r *agent.Run, ctx context.Context) (agent.Result, []event.Event) {
	h.t.Helper()
	return h.scripted.Execute(ctx, r)
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
