package agenttest

import (
	"encoding/json"
	"strings"
	"testing"

	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
)

// GuessingModel plans one step, reading the meeting notes; it guesses
// their path, reads the path it is told instead, and answers once the step
// has passed. It answers the stage calls of the plan strategy by their
// system prompts.
func GuessingModel(t testing.TB) *llmtest.Server {
	read := func(path, from string) llmtest.Step {
		args, _ := json.Marshal(map[string]any{"path": path, "_meta": map[string]any{
			"step": 1, "step_status": "finished", "serves_goal": "read the meeting notes", "provenance": map[string]string{"path": from},
		}})
		return llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "c_" + from, Name: "read_file", Arguments: string(args)}}}
	}
	return llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		sys := req.Messages[0].Content
		switch {
		case strings.HasPrefix(sys, "You are the planner"):
			return llmtest.Step{Content: `{"steps": [{"description": "Read the meeting notes", "tools": ["read_file"], "acceptance": "the notes are shown"}]}`}
		case strings.HasPrefix(sys, "You check one step"):
			return llmtest.Step{Content: `{"passed": true, "reason": "the notes are shown"}`}
		case strings.HasPrefix(sys, "You rate how sure"):
			return llmtest.Step{Content: `{"confidence": 0.9, "reason": "read them"}`}
		}
		if strings.Contains(req.Messages[1].Content, "1. [passed]") {
			return llmtest.Step{Content: "The meeting agreed on the budget."}
		}
		for _, m := range req.Messages {
			if m.Role == llm.RoleUser && strings.Contains(m.Content, "The user says: june.md") {
				return read("june.md", "user")
			}
			if m.Role == llm.RoleUser && strings.Contains(m.Content, "No one can tell you") {
				return llmtest.Step{Content: "I need the path of the meeting notes."}
			}
		}
		return read("meeting.md", "inferred")
	})
}
