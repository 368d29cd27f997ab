package contextmgr

import (
	"testing"

	"hermes/backend/llm"
)

// An assistant turn's reasoning, when the conversation keeps it (it is
// sent back to the provider), counts toward the request; none costs nothing.
func TestEstimateMessage_CountsReasoning(t *testing.T) {
	m := llm.Message{Role: llm.RoleAssistant, Content: "Reading it.", ToolCalls: []llm.ToolCall{{ID: "c1", Name: "read_file", Arguments: `{"path":"a.md"}`}}}
	without := EstimateMessage(m)
	if Estimate("") != 0 {
		t.Fatalf("Estimate(\"\") = %d, want 0", Estimate(""))
	}
	m.Reasoning = "The user wants a summary of the notes, so I read a.md first and then b.md."
	if got, want := EstimateMessage(m), without+Estimate(m.Reasoning); got != want {
		t.Errorf("EstimateMessage with reasoning = %d, want %d", got, want)
	}
}
