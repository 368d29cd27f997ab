package agent_test

import (
	"math"
	"testing"

	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
)

// The layers of a request are Hermes's estimate; once the provider has
// reported its count for a request, the next ones are scaled by the
// provider's tokens per estimated token, and context.built says by how much,
// so the budget and the card's provider figure can be told apart.
func TestContext_BuiltSaysTheProvidersRatio(t *testing.T) {
	srv := llmtest.NewServer(t,
		llmtest.Step{Content: "Looking.", ToolCalls: []llm.ToolCall{call("c1", "list_files", map[string]string{"path": "."})},
			Usage: llm.Usage{PromptTokens: 250, CompletionTokens: 5, TotalTokens: 255}},
		llmtest.Step{Content: "Done.", Usage: llm.Usage{PromptTokens: 300, CompletionTokens: 2, TotalTokens: 302}},
	)
	h := newHarness(t, srv)
	res, events := h.run("List the files")
	if res.Status != event.StatusFinished {
		t.Fatalf("result = %+v", res)
	}
	built := ofType(events, event.ContextBuilt)
	if len(built) < 2 {
		t.Fatalf("%d context.built events, want 2", len(built))
	}
	first := decode[event.ContextBuiltData](t, built[0])
	if first.Ratio != 0 {
		t.Errorf("the first request carries ratio %v before any provider reported", first.Ratio)
	}
	second := decode[event.ContextBuiltData](t, built[1])
	want := math.Round(250/float64(first.Tokens)*1000) / 1000
	if second.Ratio != want {
		t.Errorf("the second request's ratio = %v, want 250 / %d = %v", second.Ratio, first.Tokens, want)
	}
}
