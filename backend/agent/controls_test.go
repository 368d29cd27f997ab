package agent_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"hermes/backend/agent"
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
)

// waitFor returns when the bus delivers an event of type typ.
func waitFor(t *testing.T, sub <-chan event.Event, typ event.Type) event.Event {
	t.Helper()
	for e := range sub {
		if e.Type == typ {
			return e
		}
	}
	t.Fatalf("the run ended without a %s event", typ)
	return event.Event{}
}

func TestLoop_StopAtBoundaryThenResume(t *testing.T) {
	release := make(chan struct{})
	srv := llmtest.NewServer(t,
		llmtest.Step{ToolCalls: []llm.ToolCall{call("c1", "write_file", map[string]any{"path": "a.txt", "content": "one"})}, Wait: release},
		llmtest.Step{Content: "finished after resume"},
	)
	h := newHarness(t, srv)
	sub := h.setup.Bus.Subscribe(1024, nil)
	run, err := agent.NewRun(h.setup, agent.Task{Text: "write a.txt", Workspace: h.ws})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		waitFor(t, sub.C, event.IterationStarted)
		run.Controls().Stop()
		close(release)
	}()
	res, _ := h.execute(run, t.Context())
	h.setup.Bus.Unsubscribe(sub)
	if res.Status != event.StatusStopped {
		t.Fatalf("status %s, want stopped", res.Status)
	}
	// The stop took effect after the decision and before its call ran.
	if _, err := os.Stat(filepath.Join(h.ws, "a.txt")); err == nil {
		t.Fatal("a call decided before the stop still ran")
	}

	resumed, err := agent.ResumeRun(h.setup, run.ID())
	if err != nil {
		t.Fatal(err)
	}
	res, events := h.execute(resumed, t.Context())
	if res.Status != event.StatusFinished || res.Answer != "finished after resume" || res.Totals.Iterations != 2 {
		t.Fatalf("resumed result = %+v", res)
	}
	statuses := []string{}
	for _, e := range ofType(events, event.RunFinished) {
		statuses = append(statuses, decode[event.RunFinishedData](t, e).Status)
	}
	if strings.Join(statuses, ",") != "stopped,finished" || len(ofType(events, event.RunResumed)) != 1 {
		t.Errorf("run.finished statuses %v", statuses)
	}
	// The resumed request carries the whole conversation so far, and tells
	// the model its call did not run.
	if sent := h.request(1); len(sent) != 4 || sent[3].ToolCallID != "c1" || !strings.Contains(sent[3].Content, "Not run") {
		t.Errorf("resumed request = %+v", sent)
	}
	if _, err := agent.ResumeRun(h.setup, run.ID()); err == nil {
		t.Error("a finished run was resumed again")
	}
}

func TestLoop_PauseInjectEditResume(t *testing.T) {
	release := make(chan struct{})
	srv := llmtest.NewServer(t,
		llmtest.Step{ToolCalls: []llm.ToolCall{call("c1", "list_files", map[string]any{"path": "."})}, Wait: release},
		llmtest.Step{Content: "Colour checked."},
	)
	h := newHarness(t, srv)
	sub := h.setup.Bus.Subscribe(1024, nil)
	run, err := agent.NewRun(h.setup, agent.Task{Text: "check the color", Workspace: h.ws})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		waitFor(t, sub.C, event.IterationStarted)
		c := run.Controls()
		c.Send(agent.Control{Kind: agent.ControlPause})
		c.Send(agent.Control{Kind: agent.ControlInject, Text: "Use British spelling."})
		c.Send(agent.Control{Kind: agent.ControlEdit, Task: "check the colour", Instructions: "Be brief."})
		close(release)
		waitFor(t, sub.C, event.RunPaused)
		c.Send(agent.Control{Kind: agent.ControlResume})
	}()
	res, events := h.execute(run, t.Context())
	h.setup.Bus.Unsubscribe(sub)
	if res.Status != event.StatusFinished {
		t.Fatalf("status %s", res.Status)
	}
	var order []event.Type
	for _, e := range events {
		switch e.Type {
		case event.RunPaused, event.RunResumed, event.InstructionInjected, event.TaskEdited, event.IterationStarted:
			order = append(order, e.Type)
		}
	}
	// The pause falls after the decision; the instruction waits for the
	// call's result, since nothing may stand between a call and its result.
	want := []event.Type{event.IterationStarted, event.RunPaused, event.TaskEdited, event.RunResumed, event.InstructionInjected, event.IterationStarted}
	if strings.Join(typeNames(order), " ") != strings.Join(typeNames(want), " ") {
		t.Fatalf("order %v, want %v", order, want)
	}
	sent := h.request(1)
	if !strings.Contains(sent[1].Content, "check the colour") || !strings.Contains(sent[1].Content, "Be brief.") {
		t.Errorf("the edited task did not reach the model: %q", sent[1].Content)
	}
	if !contains(sent, llm.RoleUser, "Use British spelling.") {
		t.Error("the injected instruction did not reach the model")
	}
	ctx := decode[event.ContextBuiltData](t, ofType(events, event.ContextBuilt)[1])
	if !ctx.Full {
		t.Error("a context whose task changed must be published in full")
	}
}

func typeNames(ts []event.Type) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = string(t)
	}
	return out
}

func TestLoop_CancelMidIterationRedoesItOnResume(t *testing.T) {
	// The first request is held until the run gives it up; the test cancels
	// once the model has it, so the cut falls mid-iteration.
	arrived := make(chan struct{})
	var requests atomic.Int32
	srv := llmtest.NewFuncServer(t, func(llmtest.Request) llmtest.Step {
		if requests.Add(1) == 1 {
			close(arrived)
			return llmtest.Step{Content: "never sent", Wait: make(chan struct{})}
		}
		return llmtest.Step{Content: "answer after resume"}
	})
	h := newHarness(t, srv)
	run, err := agent.NewRun(h.setup, agent.Task{Text: "think", Workspace: h.ws})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		<-arrived
		cancel()
	}()
	res, _ := h.execute(run, ctx)
	if res.Status != event.StatusStopped || res.Totals.Iterations != 0 {
		t.Fatalf("cancelled result = %+v", res)
	}
	resumed, err := agent.ResumeRun(h.setup, run.ID())
	if err != nil {
		t.Fatal(err)
	}
	res, events := h.execute(resumed, t.Context())
	if res.Status != event.StatusFinished || res.Answer != "answer after resume" {
		t.Fatalf("resumed result = %+v", res)
	}
	// Iteration 1 was started twice: cut short, then done again.
	n := 0
	for _, e := range ofType(events, event.IterationStarted) {
		if e.Iteration == 1 {
			n++
		}
	}
	if n != 2 || len(ofType(events, event.ModelDecided)) != 1 {
		t.Errorf("iteration 1 started %d times with %d decisions", n, len(ofType(events, event.ModelDecided)))
	}
}

func TestLoop_SecretsNeverReachLogsOrEvents(t *testing.T) {
	srv := llmtest.NewServer(t,
		llmtest.Step{ToolCalls: []llm.ToolCall{call("c1", "read_file", map[string]any{"path": ".env"})}},
		llmtest.Step{Content: "The key is " + testKey},
	)
	h := newHarness(t, srv)
	h.setup.Limits.ObservationLimit = 40
	h.write(".env", "OPENAI_API_KEY="+testKey+"\n"+strings.Repeat("padding line\n", 20))
	res, _ := h.run("print the key")
	if res.Status != event.StatusFinished {
		t.Fatalf("status %s", res.Status)
	}
	if auth := srv.Requests()[0].Header.Get("Authorization"); auth != "Bearer "+testKey {
		t.Fatalf("the key was not sent to the model: %q", auth)
	}
	err := filepath.WalkDir(h.home, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err == nil && strings.Contains(string(b), testKey) {
			t.Errorf("%s holds the API key", path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
