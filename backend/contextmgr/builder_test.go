package contextmgr

import (
	"strings"
	"testing"

	"hermes/backend/llm"
)

func TestBuilder_LayersAndOrder(t *testing.T) {
	b := NewBuilder(1000)
	in := Input{
		System: "system prompt",
		Anchor: "Task: count files",
		Turns: []llm.Message{
			{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c1", Name: "list_files", Arguments: `{}`}}},
			{Role: llm.RoleTool, ToolCallID: "c1", Content: strings.Repeat("a.txt\n", 40)},
		},
		Tools: []llm.ToolDef{{Name: "list_files", Description: "lists files", Parameters: []byte(`{"type":"object"}`)}},
	}
	got := b.Build(in)
	if len(got.Messages) != 4 || got.Messages[0].Role != llm.RoleSystem || got.Messages[1].Content != in.Anchor {
		t.Fatalf("messages laid out wrongly: %+v", got.Messages)
	}
	l := got.Layers
	if l.System == 0 || l.TaskAnchor == 0 || l.Recent == 0 || l.ToolResults == 0 || l.ToolSchemas == 0 {
		t.Fatalf("a layer was not counted: %+v", l)
	}
	if l.ToolResults <= l.Recent {
		t.Errorf("tool result (240 chars) counted as %d, not more than the call turn %d", l.ToolResults, l.Recent)
	}
	if got.Tokens != l.Total() || got.Share != float64(got.Tokens)/1000 {
		t.Errorf("tokens %d share %v disagree with layers %+v", got.Tokens, got.Share, l)
	}
}

func TestBuilder_ObserveCorrectsEstimate(t *testing.T) {
	b := NewBuilder(1000)
	in := Input{System: strings.Repeat("s", 400), Anchor: "task"}
	first := b.Build(in)
	b.Observe(first.Tokens * 2)
	second := b.Build(in)
	if diff := second.Tokens - 2*first.Tokens; diff < -2 || diff > 2 {
		t.Errorf("after a report of twice the estimate, got %d tokens, want about %d", second.Tokens, 2*first.Tokens)
	}
}

func TestBuilder_RewrittenTurnsRecounted(t *testing.T) {
	b := NewBuilder(0)
	long := llm.Message{Role: llm.RoleAssistant, Content: strings.Repeat("x", 4000)}
	b.Build(Input{Turns: []llm.Message{long, long}})
	got := b.Build(Input{Turns: []llm.Message{{Role: llm.RoleAssistant, Content: "x"}}})
	if got.Layers.Recent > 10 {
		t.Errorf("rewritten turns still counted with stale estimates: %d", got.Layers.Recent)
	}
}

func TestBuilder_ResultLimitCutsTheRequestOnly(t *testing.T) {
	result := llm.Message{Role: llm.RoleTool, ToolCallID: "c1", Content: "HEAD " + strings.Repeat("data ", 2000) + " TAIL"}
	turns := []llm.Message{{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c1", Name: "read_file"}}}, result}
	b := NewBuilder(100000)
	whole := b.Build(Input{System: "s", Anchor: "a", Turns: turns})
	cut := b.Build(Input{System: "s", Anchor: "a", Turns: turns, ResultLimit: 300})
	got := cut.Messages[3].Content
	if !cut.Rebuilt || len([]rune(got)) > 500 || !strings.HasPrefix(got, "HEAD ") || !strings.HasSuffix(got, " TAIL") ||
		!strings.Contains(got, "left out of this request") {
		t.Fatalf("cut result (rebuilt %v): %q", cut.Rebuilt, got)
	}
	if cut.Layers.ToolResults*10 > whole.Layers.ToolResults || turns[1].Content != result.Content {
		t.Errorf("tool results %d of %d tokens; the conversation changed: %v", cut.Layers.ToolResults, whole.Layers.ToolResults, turns[1].Content != result.Content)
	}
	if again := b.Build(Input{System: "s", Anchor: "a", Turns: turns}); !again.Rebuilt || again.Messages[3].Content != result.Content {
		t.Error("without the limit the result is not whole again")
	}
}
