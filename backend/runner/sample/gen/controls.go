package main

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"hermes/backend/agent"
	"hermes/backend/agent/agenttest"
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/toolbox"
)

// recordControls records controls.jsonl: a short run that a person steers,
// so the Go and the frontend's folds are held to the events the sample has
// not: reasoning, a pause with an injected instruction and a resume, one
// write denied and one approved, a compression, a usage with no total,
// besides a model retry.
func recordControls(tb *agenttest.Process, out string) error {
	var script []llmtest.Step
	// Four long pages fill the small window below, so the run compresses.
	files := map[string]string{"todo.md": "- buy milk\n- call Ana\n"}
	filler := strings.Repeat("lorem ipsum dolor sit amet consectetur adipiscing elit\n", 160)
	for i := range 4 {
		files[fmt.Sprintf("log%d.txt", i)] = filler
	}
	release := make(chan struct{})
	var mu sync.Mutex
	srv := llmtest.NewFuncServer(tb, func(req llmtest.Request) llmtest.Step {
		mu.Lock()
		defer mu.Unlock()
		if len(req.Tools) == 0 {
			return llmtest.Step{Content: "SUMMARY:\nRead todo.md (buy milk, call Ana) and the four logs.\nPROGRESS:\nDone: read\nRemaining: tick off the list"}
		}
		if len(script) == 0 {
			tb.Errorf("the model was asked once more than the script answers")
			return llmtest.Step{Status: 500}
		}
		step := script[0]
		script = script[1:]
		return step
	})
	script = []llmtest.Step{
		llmtest.Step{Reasoning: "The list is in the workspace; read it first.", Content: "I'll read the list.", Chunks: 2,
			ToolCalls: []llm.ToolCall{call("call_read", "read_file", `{"path":"todo.md"}`)}, Wait: release},
		llmtest.Step{Content: "And the logs, in case they mention the list.", ToolCalls: []llm.ToolCall{
			call("call_log0", "read_file", `{"path":"log0.txt"}`), call("call_log1", "read_file", `{"path":"log1.txt"}`),
			call("call_log2", "read_file", `{"path":"log2.txt"}`), call("call_log3", "read_file", `{"path":"log3.txt"}`),
		}},
		llmtest.Step{Status: 503, RetryAfter: "0", Content: "the model is overloaded, try again"},
		llmtest.Step{Reasoning: "Two items; write them as done.", Content: "Marking both done.", Chunks: 2,
			ToolCalls: []llm.ToolCall{call("call_write_1", "write_file", `{"path":"todo.md","content":"- [x] buy milk\n- [x] call Ana\n"}`)}},
		llmtest.Step{Content: "Then into a new file instead.",
			ToolCalls: []llm.ToolCall{call("call_write_2", "write_file", `{"path":"done.md","content":"- buy milk\n- call Ana\n"}`)}},
		// Some endpoints report no total_tokens: the folds add prompt and completion.
		llmtest.Step{Reasoning: "Written; answer briefly.", Content: "Both items are in done.md; todo.md is unchanged.", Chunks: 3,
			Usage: llm.Usage{PromptTokens: 940, CompletionTokens: 30}},
	}
	policy := toolbox.NewPolicy(toolbox.PolicyConfig{Risk: map[toolbox.Risk]toolbox.Action{toolbox.RiskRead: toolbox.Allow}}, nil)
	h := agenttest.New(tb, srv, agenttest.Options{Key: recordingKey, Model: modelName, Files: files})
	h.Setup.Policy = policy
	h.Setup.Limits = agent.Limits{MaxIterations: 8, ContextWindow: 12000, CompressAt: 0.6, RecentTurns: 2}
	run := h.Start(agent.Task{Text: "Tick off my list in todo.md."})
	bus := h.Setup.Bus
	sub := bus.Subscribe(1024, nil)
	steered := make(chan error, 1)
	go func() {
		defer bus.Unsubscribe(sub)
		steered <- steer(run.Controls(), sub.C, release)
	}()
	res, _ := h.Execute(context.Background(), run)
	if err := <-steered; err != nil {
		return err
	}
	if res.Status != event.StatusFinished || tb.Failed() {
		return fmt.Errorf("the controls run ended %s (%s); fix the script", res.Status, res.Error)
	}
	return writeShown(tb, h, run, out, "~/todo")
}

// steer plays the person: pause during the first turn and add an
// instruction, resume once paused, deny the first write and allow the second.
func steer(c *agent.Controls, events <-chan event.Event, release chan struct{}) error {
	next := func(typ event.Type) (event.Event, error) {
		for e := range events {
			if e.Type == typ {
				return e, nil
			}
		}
		return event.Event{}, fmt.Errorf("the run ended without a %s event", typ)
	}
	if _, err := next(event.IterationStarted); err != nil {
		return err
	}
	c.Send(agent.Control{Kind: agent.ControlPause})
	c.Send(agent.Control{Kind: agent.ControlInject, Text: "Keep todo.md as it is."})
	close(release)
	if _, err := next(event.RunPaused); err != nil {
		return err
	}
	c.Send(agent.Control{Kind: agent.ControlResume})
	for _, answer := range []agent.Control{
		{Kind: agent.ControlApprove, Decision: event.ApproveDeny, Reason: "leave todo.md as it is"},
		{Kind: agent.ControlApprove, Decision: event.ApproveOnce},
	} {
		e, err := next(event.ApprovalRequested)
		if err != nil {
			return err
		}
		d, err := event.Decode[event.ApprovalRequestedData](e)
		if err != nil {
			return err
		}
		answer.ApprovalID = d.ApprovalID
		c.Send(answer)
	}
	return nil
}
