package main

import (
	"fmt"
	"strings"
	"time"

	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/runlog"
	"hermes/backend/server/servertest"
)

// Long run: the UI's search test looks for text in iteration 250 of it,
// and for the reasoning of iteration 7.
const (
	longIterations = 300
	longTask       = "Check every note of the archive for the codename and say where it appears"
	// Needle is in iteration 250's result twice and in iteration 251's thought.
	longNeedle = "zephyr-42"
	// Thinking is in iteration 7's reasoning only.
	longThinking = "quiet-lemma"
)

// writeLong writes a finished run of longIterations model turns, each a
// thought and a read_file call with its result, started at started.
func writeLong(home string, started time.Time) (servertest.Written, error) {
	id := runlog.NewRunID(started)
	w, err := runlog.Create(home, id, started)
	if err != nil {
		return servertest.Written{}, err
	}
	now := started
	clock := func() time.Time { now = now.Add(40 * time.Millisecond); return now }
	em := event.NewEmitter(id, event.EmitterOptions{Sinks: []event.Sink{w}, Now: clock})
	emit := func(t event.Type, it int, payload any) {
		if err == nil {
			_, err = em.Emit(t, it, payload)
		}
	}
	tools := []string{"list_files", "read_file"}
	emit(event.RunStarted, 0, event.RunStartedData{
		Task: longTask, Workspace: "/home/ada/archive", Model: "deepseek-reasoner", BaseURL: "http://127.0.0.1:11434/v1",
		MaxIterations: longIterations + 10, Tools: tools,
	})
	pending := []llm.Message{
		{Role: llm.RoleSystem, Content: "You are Hermes, an agent that completes the user's task by calling the tools you are given."},
		{Role: llm.RoleUser, Content: "Task:\n" + longTask},
	}
	tokens, calls := 0, 0
	for i := 1; i <= longIterations && err == nil; i++ {
		emit(event.IterationStarted, i, event.IterationStartedData{})
		prompt := 900 + 40*i
		emit(event.ContextBuilt, i, event.ContextBuiltData{
			Layers: event.Layers{System: 300, TaskAnchor: 60, ToolSchemas: 200, Recent: prompt - 560},
			Tokens: prompt, Window: 128000, BudgetShare: float64(prompt) / 128000, MessageCount: 2 * i, Full: i == 1,
			Messages: pending, ToolNames: tools,
		})
		usage := llm.Usage{PromptTokens: prompt, CompletionTokens: 30, TotalTokens: prompt + 30}
		tokens += usage.TotalTokens
		if i == longIterations {
			answer := fmt.Sprintf("The codename %s appears in notes/0250.md only.", longNeedle)
			emit(event.ModelDelta, i, event.ModelDeltaData{Text: answer})
			emit(event.ModelDecided, i, event.ModelDecidedData{FinalAnswer: answer, Usage: usage, LatencyMS: 600, Attempts: 1, FinishReason: "stop"})
			emit(event.RunFinished, 0, event.RunFinishedData{
				Status: event.StatusFinished, Answer: answer, Verified: true,
				Totals: event.Totals{Iterations: i, PromptTokens: tokens, TotalTokens: tokens, ToolCalls: calls, DurationMS: now.Sub(started).Milliseconds()},
			})
			break
		}
		thought := fmt.Sprintf("I will read note %d next.", i)
		if i == longIterations-49 {
			thought = fmt.Sprintf("Note 250 names %s; I will check the rest.", longNeedle)
		}
		reasoning := ""
		if i == 7 {
			reasoning = fmt.Sprintf("The notes so far are dull. The %s may hide in a later note, so I keep reading in order.", longThinking)
			emit(event.ModelReasoning, i, event.ModelReasoningData{Text: reasoning})
		}
		args := fmt.Sprintf(`{"path":"notes/%04d.md"}`, i)
		callID := fmt.Sprintf("call_%d", i)
		emit(event.ModelDelta, i, event.ModelDeltaData{Text: thought})
		emit(event.ModelDecided, i, event.ModelDecidedData{
			Thought: thought, Reasoning: reasoning, Usage: usage, LatencyMS: 500, Attempts: 1, FinishReason: "tool_calls",
			ToolCalls: []event.DecidedCall{{ID: callID, Name: "read_file", Arguments: args, Valid: true}},
		})
		calls++
		result := fmt.Sprintf("# Note %d\nNothing of note here.", i)
		if i == 250 {
			result = fmt.Sprintf("# Note 250\nThe project was renamed %s in March.\n%s ships in May.", longNeedle, strings.ToUpper(longNeedle))
		}
		emit(event.ToolStarted, i, event.ToolStartedData{CallID: callID, Name: "read_file", Arguments: args, Attempt: 1})
		emit(event.ToolFinished, i, event.ToolFinishedData{CallID: callID, Name: "read_file", OK: true, Result: result, Size: len(result), DurationMS: 3, Attempt: 1})
		emit(event.CheckpointSaved, i, event.CheckpointSavedData{Messages: 2*i + 2})
		pending = []llm.Message{
			{Role: llm.RoleAssistant, Content: thought, ToolCalls: []llm.ToolCall{{ID: callID, Name: "read_file", Arguments: args}}},
			{Role: llm.RoleTool, Content: result, ToolCallID: callID, Name: "read_file"},
		}
	}
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return servertest.Written{}, fmt.Errorf("write the long run: %w", err)
	}
	return servertest.Written{
		RunID: id, Task: longTask, Status: event.StatusFinished, Iterations: longIterations,
		Tokens: tokens, Events: int(em.LastSeq()), Path: w.Path(),
	}, nil
}
