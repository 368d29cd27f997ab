package agent_test

import (
	"strings"
	"testing"

	"hermes/backend/agent"
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/memory"
)

// memoryRun runs task with standing instructions to its end.
func memoryRun(t *testing.T, h *harness, task, instructions string) (agent.Result, []event.Event) {
	t.Helper()
	r, err := agent.NewRun(h.setup, agent.Task{Text: task, Instructions: instructions, Workspace: h.ws})
	if err != nil {
		t.Fatal(err)
	}
	return h.execute(r, t.Context())
}

func written(t *testing.T, events []event.Event) []event.MemoryRef {
	var out []event.MemoryRef
	for _, e := range ofType(events, event.MemoryWritten) {
		out = append(out, decode[event.MemoryWrittenData](t, e).Entries...)
	}
	return out
}

func hasEntry(refs []event.MemoryRef, kind, text string) bool {
	for _, r := range refs {
		if r.Kind == kind && strings.Contains(r.Text, text) {
			return true
		}
	}
	return false
}

func TestMemory_WrittenAndRecalledAcrossRuns(t *testing.T) {
	srv := llmtest.NewServer(t,
		llmtest.Step{ToolCalls: []llm.ToolCall{call("c1", "read_file", map[string]any{"path": "sales.csv"})}},
		llmtest.Step{Content: "Q3 revenue was 1,204,000; the table is in report.md."},
		llmtest.Step{Content: "Updated the Q3 report with September."},
		llmtest.Step{Content: "写好了周报。"},
	)
	h := newHarness(t, srv)
	h.setup.Memory = agent.MemoryOn
	h.write("sales.csv", "month,revenue\njul,400000\n")

	res, events := memoryRun(t, h, "Compile the Q3 sales report from sales.csv",
		"Write dates as YYYY-MM-DD. Remember that I prefer Markdown tables.")
	if res.Status != event.StatusFinished {
		t.Fatalf("first run = %+v", res)
	}
	firstRun := res.RunID
	refs := written(t, events)
	if !hasEntry(refs, memory.KindOutcome, "Outcome: Q3 revenue was 1,204,000") || !hasEntry(refs, memory.KindPath, "sales.csv") ||
		!hasEntry(refs, memory.KindPreference, "Remember that I prefer Markdown tables.") {
		t.Fatalf("memory.written = %+v", refs)
	}
	if hasEntry(refs, memory.KindPreference, "YYYY-MM-DD") {
		t.Fatal("an instruction given once became a preference")
	}
	types := ofType(events, event.MemoryWritten)
	if fin := ofType(events, event.RunFinished); len(types) != 1 || types[0].Seq != fin[0].Seq-1 {
		t.Fatal("memory.written must come just before run.finished")
	}

	// A related task recalls the outcome and the preference; the instruction
	// given again is now a preference.
	res, events = memoryRun(t, h, "Update the Q3 sales report with the September figures", "Write dates as YYYY-MM-DD.")
	if res.Status != event.StatusFinished {
		t.Fatalf("second run = %+v", res)
	}
	first := h.request(2)
	if len(first) < 3 || !strings.Contains(first[2].Content, "Q3 revenue was 1,204,000") || !strings.Contains(first[2].Content, "Markdown tables") {
		t.Fatalf("the second run's first request recalls nothing: %+v", first)
	}
	c := decode[event.ContextBuiltData](t, ofType(events, event.ContextBuilt)[0])
	if c.Layers.Memory == 0 || c.Layers.Memory > 1000 {
		t.Errorf("memory layer = %d tokens", c.Layers.Memory)
	}
	if !hasEntry(written(t, events), memory.KindPreference, "Write dates as YYYY-MM-DD.") {
		t.Errorf("a recurring instruction did not become a preference: %+v", written(t, events))
	}
	store := h.setup.Store.(*memory.Store)
	list, err := store.Memories(0)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range list {
		if e.RunID == firstRun && e.Recalls != 1 {
			t.Errorf("memory %d of the first run was recalled %d times, want 1: %q", e.ID, e.Recalls, e.Text)
		}
	}

	// An unrelated task in Chinese gets no memory of sales.
	res, _ = memoryRun(t, h, "写一份本周的园艺周报", "")
	if res.Status != event.StatusFinished {
		t.Fatalf("third run = %+v", res)
	}
	if third := h.request(3); len(third) > 2 && strings.Contains(third[2].Content, "1,204,000") {
		t.Errorf("an unrelated task recalled the sales outcome: %q", third[2].Content)
	}
}

func TestMemory_ReadOnlyWritesNothing(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Step{Content: "done"})
	h := newHarness(t, srv)
	h.setup.Memory = agent.MemoryRead
	_, events := h.run("Remember that I prefer short answers.")
	if n := len(ofType(events, event.MemoryWritten)); n != 0 {
		t.Fatalf("memory = read wrote %d entries", n)
	}
}
