package agent_test

import (
	"reflect"
	"strings"
	"testing"

	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
)

// A thinking model's reasoning is streamed live as model.reasoning before
// the decision's text, kept whole in model.decided, counted in the usage
// and the run's totals, and sent back with the tool calls only to a model
// whose provider requires it.
func TestLoop_KeepsReasoning(t *testing.T) {
	const think1, think2 = "I should read notes.txt first.", "它说要买牛奶。"
	for _, tt := range []struct {
		model    string
		sentBack bool
	}{
		{"test-model", false},
		{"deepseek-reasoner", true},
	} {
		t.Run(tt.model, func(t *testing.T) {
			srv := llmtest.NewServer(t,
				llmtest.Step{
					Reasoning: think1, Content: "Let me read it.", Chunks: 3,
					ToolCalls: []llm.ToolCall{call("call_a", "read_file", map[string]any{"path": "notes.txt"})},
					Usage:     llm.Usage{PromptTokens: 100, CompletionTokens: 30, TotalTokens: 130, ReasoningTokens: 7},
				},
				llmtest.Step{
					Reasoning: think2, Content: "The note says: buy milk.", Chunks: 2,
					Usage: llm.Usage{PromptTokens: 150, CompletionTokens: 20, TotalTokens: 170, ReasoningTokens: 5},
				},
			)
			h := newHarness(t, srv)
			h.setup.ModelName = tt.model
			h.write("notes.txt", "buy milk\n")
			sub := h.setup.Bus.Subscribe(1024, nil)

			res, events := h.run("What does notes.txt say?")
			if res.Status != event.StatusFinished {
				t.Fatalf("result = %+v", res)
			}

			// Per iteration: the streamed thinking, all of it before the text.
			thoughts, texts := map[int]string{}, map[int]string{}
			for _, e := range events {
				switch e.Type {
				case event.ModelReasoning:
					if texts[e.Iteration] != "" {
						t.Errorf("iteration %d: thinking streamed after the text", e.Iteration)
					}
					thoughts[e.Iteration] += decode[event.ModelReasoningData](t, e).Text
				case event.ModelDelta:
					texts[e.Iteration] += decode[event.ModelDeltaData](t, e).Text
				}
			}
			if thoughts[1] != think1 || thoughts[2] != think2 || texts[1] != "Let me read it." {
				t.Errorf("streamed thinking %v, text %v", thoughts, texts)
			}
			decided := ofType(events, event.ModelDecided)
			d1, d2 := decode[event.ModelDecidedData](t, decided[0]), decode[event.ModelDecidedData](t, decided[1])
			if d1.Reasoning != think1 || d2.Reasoning != think2 || d1.Thought != "Let me read it." {
				t.Errorf("decided reasoning %q / %q, thought %q", d1.Reasoning, d2.Reasoning, d1.Thought)
			}
			if d1.Usage.ReasoningTokens != 7 || d2.Usage.ReasoningTokens != 5 {
				t.Errorf("decided reasoning tokens %d, %d; want 7, 5", d1.Usage.ReasoningTokens, d2.Usage.ReasoningTokens)
			}
			if tot := finished(t, events).Totals; tot.ReasoningTokens != 12 || tot.CompletionTokens != 50 {
				t.Errorf("totals = %+v, want 12 reasoning tokens of 50", tot)
			}

			assistant := h.request(1)[len(h.request(1))-2]
			if len(assistant.ToolCalls) != 1 || (assistant.Reasoning == think1) != tt.sentBack {
				t.Errorf("assistant turn sent back as %+v; reasoning sent back: want %v", assistant, tt.sentBack)
			}
			if strings.Contains(h.request(1)[len(h.request(1))-2].Content, think1) {
				t.Error("the thinking was sent as the assistant's text")
			}
			// The conversation (context.built, checkpoints) holds it only
			// where it is sent, so the context counts what the model gets.
			built := decode[event.ContextBuiltData](t, ofType(events, event.ContextBuilt)[1])
			kept := false
			for _, m := range built.Messages {
				kept = kept || m.Reasoning == think1
			}
			if kept != tt.sentBack {
				t.Errorf("the conversation keeps the reasoning: %v, want %v", kept, tt.sentBack)
			}

			h.setup.Bus.Unsubscribe(sub)
			var live []event.Event
			for e := range sub.C {
				live = append(live, e)
			}
			if !reflect.DeepEqual(live, events) {
				t.Errorf("the bus delivered %d events that differ from the log's %d", len(live), len(events))
			}
		})
	}
}
