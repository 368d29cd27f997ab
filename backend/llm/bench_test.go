package llm_test

import (
	"testing"

	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
)

// BenchmarkChat measures one streamed turn with a tool call through the real
// client and the scripted server: the floor under the loop's benchmark.
func BenchmarkChat(b *testing.B) {
	srv := llmtest.NewFuncServer(b, func(llmtest.Request) llmtest.Step {
		return llmtest.Step{Content: "Reading it.", ToolCalls: []llm.ToolCall{{ID: "call_1", Name: "noop", Arguments: `{"n":1}`}}, Chunks: 3}
	})
	c := newClient(srv.URL)
	msgs := []llm.Message{{Role: llm.RoleSystem, Content: "You are Hermes."}, {Role: llm.RoleUser, Content: "Do the task."}}
	for range 8 {
		msgs = append(msgs,
			llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "call_0", Name: "noop", Arguments: `{"n":0}`}}},
			llm.Message{Role: llm.RoleTool, ToolCallID: "call_0", Content: "ok"})
	}
	req := llm.Request{Messages: msgs}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Chat(b.Context(), req); err != nil {
			b.Fatal(err)
		}
	}
}
