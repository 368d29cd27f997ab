package runner

import (
	"encoding/json"
	"errors"
	"testing"

	"hermes/backend/event"
	"hermes/backend/llm"
)

func ev(t *testing.T, iteration int, typ event.Type, payload any) event.Event {
	t.Helper()
	b, err := json.Marshal(payload)
	if err != nil {
		t.Fatal(err)
	}
	return event.Event{Iteration: iteration, Type: typ, Data: b}
}

func TestForkAt_RebuildsTheConversationOfAnIteration(t *testing.T) {
	sys := llm.Message{Role: llm.RoleSystem, Content: "system"}
	anchor := func(task string) llm.Message { return llm.Message{Role: llm.RoleUser, Content: "Task:\n" + task} }
	call := llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c1", Name: "list_files", Arguments: "{}"}}}
	result := llm.Message{Role: llm.RoleTool, ToolCallID: "c1", Content: "a.txt"}
	call2 := llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c2", Name: "read_file", Arguments: `{"path":"a.txt"}`}}}
	result2 := llm.Message{Role: llm.RoleTool, ToolCallID: "c2", Content: "hello"}
	events := []event.Event{
		ev(t, 0, event.RunStarted, event.RunStartedData{Task: "first", Instructions: "rules", Workspace: "/ws"}),
		ev(t, 1, event.ContextBuilt, event.ContextBuiltData{Full: true, Messages: []llm.Message{sys, anchor("first")}}),
		ev(t, 1, event.TaskEdited, event.TaskEditedData{OldTask: "first", NewTask: "edited", NewInstructions: "new rules"}),
		// The anchor changed, so iteration 2's request is sent whole.
		ev(t, 2, event.ContextBuilt, event.ContextBuiltData{Full: true, Messages: []llm.Message{sys, anchor("edited"), call, result}}),
		ev(t, 3, event.ContextBuilt, event.ContextBuiltData{Messages: []llm.Message{call2, result2}}),
		ev(t, 3, event.TaskEdited, event.TaskEditedData{NewTask: "after iteration 3's request"}),
		// Compressed: the summary stands for iteration 1 and 2's turns, the
		// recalled memory is the run's own to lay out again.
		ev(t, 4, event.ContextBuilt, event.ContextBuiltData{Full: true, Layers: event.Layers{Summary: 9, Memory: 5}, Messages: []llm.Message{
			sys, anchor("edited"), {Role: llm.RoleUser, Content: "Summary: listed a.txt"}, {Role: llm.RoleUser, Content: "Memory: a fact"}, call2, result2,
		}}),
	}
	tests := []struct {
		n         int
		task      string
		instr     string
		turns     int
		lastTurns string
	}{
		{1, "first", "rules", 0, ""},
		{2, "edited", "new rules", 2, "c1"},
		{3, "edited", "new rules", 4, "c2"},
		{4, "after iteration 3's request", "", 3, "c2"},
	}
	for _, tt := range tests {
		p, err := forkAt(events, tt.n)
		if err != nil {
			t.Fatalf("iteration %d: %v", tt.n, err)
		}
		if p.task != tt.task || p.instructions != tt.instr || p.workspace != "/ws" || len(p.turns) != tt.turns {
			t.Errorf("iteration %d: %+v", tt.n, p)
		}
		if tt.turns > 0 && p.turns[len(p.turns)-1].ToolCallID != tt.lastTurns {
			t.Errorf("iteration %d ends with %+v", tt.n, p.turns[len(p.turns)-1])
		}
	}
	if p, _ := forkAt(events, 4); p.turns[0].Content != "Summary: listed a.txt" {
		t.Errorf("the summary is not the first turn: %+v", p.turns[0])
	}
	for _, n := range []int{0, 5, -1} {
		if _, err := forkAt(events, n); !errors.Is(err, ErrBadIteration) {
			t.Errorf("iteration %d: %v", n, err)
		}
	}
}
