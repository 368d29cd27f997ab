package agent_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"hermes/backend/agent"
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/longterm"
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
	if !hasEntry(refs, longterm.KindOutcome, "Outcome: Q3 revenue was 1,204,000") || !hasEntry(refs, longterm.KindPath, "sales.csv") ||
		!hasEntry(refs, longterm.KindPreference, "Remember that I prefer Markdown tables.") {
		t.Fatalf("memory.written = %+v", refs)
	}
	if hasEntry(refs, longterm.KindPreference, "YYYY-MM-DD") {
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
	if !hasEntry(written(t, events), longterm.KindPreference, "Write dates as YYYY-MM-DD.") {
		t.Errorf("a recurring instruction did not become a preference: %+v", written(t, events))
	}
	list, err := h.setup.LongTerm.Memories(0)
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

// injectRun runs task, injecting instruction while the model works on its
// first call; the model's steps are a file listing, then the answer.
func injectRun(t *testing.T, h *harness, release chan struct{}, task, instruction string) []event.Event {
	t.Helper()
	sub := h.setup.Bus.Subscribe(1024, nil)
	defer h.setup.Bus.Unsubscribe(sub)
	r, err := agent.NewRun(h.setup, agent.Task{Text: task, Workspace: h.ws})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		waitFor(t, sub.C, event.IterationStarted)
		r.Controls().Send(agent.Control{Kind: agent.ControlInject, Text: instruction})
		close(release)
	}()
	res, events := h.execute(r, t.Context())
	if res.Status != event.StatusFinished || len(ofType(events, event.InstructionInjected)) != 1 {
		t.Fatalf("run = %+v, %d injected", res, len(ofType(events, event.InstructionInjected)))
	}
	return events
}

// An instruction injected while a run works is for that run: even given in
// two runs it is no preference, and an unrelated run is not given it.
func TestMemory_InjectedInstructionStaysWithItsRun(t *testing.T) {
	first, second := make(chan struct{}), make(chan struct{})
	listing := []llm.ToolCall{call("c1", "list_files", map[string]any{"path": "."})}
	srv := llmtest.NewServer(t,
		llmtest.Step{ToolCalls: listing, Wait: first},
		llmtest.Step{Content: "Projects: Apollo, Gemini."},
		llmtest.Step{ToolCalls: listing, Wait: second},
		llmtest.Step{Content: "Projects again: Apollo, Gemini."},
		llmtest.Step{Content: "Planted."},
	)
	h := newHarness(t, srv)
	h.setup.Memory = agent.MemoryOn
	const inject = "Also list which daily notes mention each project"
	for _, c := range []struct {
		release chan struct{}
		task    string
	}{{first, "Summarise my project notes"}, {second, "List my projects"}} {
		events := injectRun(t, h, c.release, c.task, inject)
		for _, ref := range written(t, events) {
			if ref.Kind == longterm.KindPreference {
				t.Fatalf("%q wrote the preference %q", c.task, ref.Text)
			}
		}
	}
	res, _ := memoryRun(t, h, "Plan the tomato beds for spring", "")
	if res.Status != event.StatusFinished {
		t.Fatalf("third run = %+v", res)
	}
	for _, m := range h.request(4) {
		if strings.Contains(m.Content, "daily notes") {
			t.Fatalf("an unrelated run was given the injected instruction: %q", m.Content)
		}
	}
}

// Standing instructions become preferences whole, never as fragments, once
// two runs gave them or at once when the user says they hold; the same
// preference in other words of case and punctuation is kept once; a task
// that only mentions a marker word is no preference.
func TestMemory_PreferencesWholeAndDeduplicated(t *testing.T) {
	var steps []llmtest.Step
	for range 5 {
		steps = append(steps, llmtest.Step{Content: "done"})
	}
	h := newHarness(t, llmtest.NewServer(t, steps...))
	h.setup.Memory = agent.MemoryOn
	runs := []struct{ task, instructions string }{
		{"Summarise my project notes", "Skip the daily notes; they repeat the project notes.\n以后日期都写成 YYYY-MM-DD。"},
		{"Find where the code calls remember() and explain it", "skip the daily notes — they repeat the project notes\nAlways answer in British English. It is what my readers expect."},
		{"List my projects", "Skip the daily notes.  They repeat the project notes!\nalways answer in British English: it is what my readers expect"},
		{"总结项目笔记", "总是用表格列出项目。"},
		{"Remember to skip the daily notes; they repeat the project notes", ""},
	}
	var prefs []event.MemoryRef
	for i, r := range runs {
		res, events := memoryRun(t, h, r.task, r.instructions)
		if res.Status != event.StatusFinished {
			t.Fatalf("run %d = %+v", i, res)
		}
		for _, ref := range written(t, events) {
			if ref.Kind == longterm.KindPreference {
				prefs = append(prefs, ref)
			} else if ref.Source != longterm.SourceResult || ref.RunID != res.RunID {
				t.Errorf("run %d wrote %+v; an outcome or path comes from the run's result", i, ref)
			}
		}
	}
	want := []struct{ text, source string }{
		{"以后日期都写成 YYYY-MM-DD。", longterm.SourceStanding},
		{"skip the daily notes — they repeat the project notes", longterm.SourceStanding},
		{"Always answer in British English. It is what my readers expect.", longterm.SourceStanding},
		{"总是用表格列出项目。", longterm.SourceStanding},
		{"Remember to skip the daily notes; they repeat the project notes", longterm.SourceTask},
	}
	if len(prefs) != len(want) {
		t.Fatalf("preferences written: %+v", prefs)
	}
	for i, w := range want {
		if prefs[i].Text != w.text || prefs[i].Source != w.source || prefs[i].RunID == "" {
			t.Errorf("preference %d = %+v, want %q from %s", i, prefs[i], w.text, w.source)
		}
	}
}

// A run is told why each memory was recalled, in memory.recalled, and the
// memory keeps the run and the reason.
func TestMemory_RecallSaysWhy(t *testing.T) {
	srv := llmtest.NewServer(t,
		llmtest.Step{Content: "Q3 revenue was 1,204,000."},
		llmtest.Step{Content: "Updated."},
	)
	h := newHarness(t, srv)
	h.setup.Memory = agent.MemoryOn
	db := h.setup.LongTerm
	pinned, err := db.Remember([]longterm.Entry{{Kind: longterm.KindFact, Text: "The office closes at six on Fridays"}}, time.Now())
	if err != nil || db.Pin(pinned[0].ID, true, time.Now()) != nil {
		t.Fatal(err)
	}
	first, _ := memoryRun(t, h, "Compile the Q3 sales report", "Remember that I prefer Markdown tables.")
	second, events := memoryRun(t, h, "Update the Q3 sales report with September", "")
	recalled := ofType(events, event.MemoryRecalled)
	if len(recalled) != 1 {
		t.Fatalf("%d memory.recalled events", len(recalled))
	}
	if ctx := ofType(events, event.ContextBuilt); len(ctx) == 0 || recalled[0].Seq > ctx[0].Seq {
		t.Fatal("memory.recalled must come before the first context.built")
	}
	refs := decode[event.MemoryRecalledData](t, recalled[0]).Entries
	byReason := map[string]event.MemoryRef{}
	for _, r := range refs {
		byReason[r.Reason] = r
	}
	pin, pref, match := byReason[longterm.ReasonPinned], byReason[longterm.ReasonPreference], byReason[longterm.ReasonMatch]
	if pin.ID != pinned[0].ID || pref.Text != "Remember that I prefer Markdown tables." || pref.Source != longterm.SourceStanding || pref.RunID != first.RunID {
		t.Fatalf("recalled = %+v", refs)
	}
	if !strings.Contains(match.Text, "Q3 revenue") || match.Score <= 0 || !slices.Contains(match.Terms, "q3") || match.Source != longterm.SourceResult {
		t.Fatalf("the matched memory = %+v", match)
	}
	e, err := db.Get(match.ID)
	if err != nil || e.LastRecall == nil || e.LastRecall.RunID != second.RunID || e.LastRecall.Reason != longterm.ReasonMatch || !slices.Equal(e.LastRecall.Terms, match.Terms) {
		t.Fatalf("the memory keeps %+v, %v", e.LastRecall, err)
	}
}

// checkpointsOnly hides every method of the store but the checkpoints', as
// a store wrapped by a caller (timing, failure injection) does.
type checkpointsOnly struct{ agent.Checkpoints }

// TestMemory_KeptWhenCheckpointsAreWrapped: long-term memory is its own
// field of the setup, so a run whose checkpoints go through a wrapper still
// recalls and writes it.
func TestMemory_KeptWhenCheckpointsAreWrapped(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Step{Content: "Done: the report is in report.md."})
	h := newHarness(t, srv)
	h.setup.Memory = agent.MemoryOn
	h.setup.Store = checkpointsOnly{h.setup.Store}

	res, events := memoryRun(t, h, "Write the report", "Remember that I prefer Markdown tables.")
	if res.Status != event.StatusFinished {
		t.Fatalf("run = %+v", res)
	}
	if refs := written(t, events); !hasEntry(refs, longterm.KindPreference, "Markdown tables") {
		t.Fatalf("memory.written = %+v, want the preference", refs)
	}
}

// recalled returns what memory.recalled gave a run.
func recalled(t *testing.T, events []event.Event) []event.MemoryRef {
	var out []event.MemoryRef
	for _, e := range ofType(events, event.MemoryRecalled) {
		out = append(out, decode[event.MemoryRecalledData](t, e).Entries...)
	}
	return out
}

// An answer nothing vouched for (it followed a failed read) is not kept,
// so no later run about the same task is given it; the person's stated
// preference is kept all the same. A verified answer is kept.
func TestMemory_OnlyVerifiedAnswersAreKept(t *testing.T) {
	srv := llmtest.NewServer(t,
		llmtest.Step{ToolCalls: []llm.ToolCall{call("r1", "read_file", map[string]any{"path": "sales.csv"})}},
		llmtest.Step{Content: "Q3 revenue was 9,999,999."},
		llmtest.Step{Content: "Q3 revenue was 9,999,999, I am sure."},
		llmtest.Step{Content: "I have no figures for Q3 yet."},
	)
	h := newHarness(t, srv)
	h.setup.Memory = agent.MemoryOn
	res, events := memoryRun(t, h, "Compile the Q3 sales report from sales.csv", "Remember that I prefer Markdown tables.")
	if res.Status != event.StatusFinished || res.Verified {
		t.Fatalf("first run = %+v; want an unverified answer", res)
	}
	refs := written(t, events)
	if hasEntry(refs, longterm.KindOutcome, "9,999,999") || hasEntry(refs, longterm.KindPath, "sales.csv") {
		t.Fatalf("an unverified answer was kept: %+v", refs)
	}
	if !hasEntry(refs, longterm.KindPreference, "Markdown tables") {
		t.Fatalf("the person's preference was not kept: %+v", refs)
	}

	res, events = memoryRun(t, h, "Update the Q3 sales report with the September figures", "")
	if !res.Verified {
		t.Fatalf("second run = %+v", res)
	}
	for _, ref := range recalled(t, events) {
		if strings.Contains(ref.Text, "9,999,999") {
			t.Fatalf("a later run was given the unverified answer: %+v", ref)
		}
	}
	if !hasEntry(written(t, events), longterm.KindOutcome, "no figures for Q3") {
		t.Errorf("a verified answer was not kept: %+v", written(t, events))
	}
}

// A run is given only the memories its task is about: tasks in English and
// Chinese that share a generic word or only function words with what an
// earlier run kept get none of it; one about it does, and memory.recalled
// says how relevant it was and when it was written.
func TestMemory_RecalledOnlyIntoRunsAboutIt(t *testing.T) {
	srv := llmtest.NewServer(t,
		llmtest.Step{Content: "Q3 revenue was 1,204,000; the table is in report.md."},
		llmtest.Step{Content: "会议纪要已整理成摘要。"},
		llmtest.Step{Content: "Rome was founded in 753 BC."},
		llmtest.Step{Content: "秋天的诗写好了。"},
		llmtest.Step{Content: "罗马历史报告写好了。"},
		llmtest.Step{Content: "Updated."},
	)
	h := newHarness(t, srv)
	h.setup.Memory = agent.MemoryOn
	first, _ := memoryRun(t, h, "Compile the Q3 sales report", "")
	memoryRun(t, h, "帮我把会议纪要整理成摘要", "")
	for _, task := range []string{"Write a report about the history of Rome", "请帮我写一首关于秋天的诗", "写一份关于罗马历史的报告"} {
		_, events := memoryRun(t, h, task, "")
		if got := recalled(t, events); len(got) != 0 {
			t.Errorf("%q was given memories it is not about: %+v", task, got)
		}
	}
	_, events := memoryRun(t, h, "Update the Q3 sales report with the September figures", "")
	got := recalled(t, events)
	if len(got) != 1 || got[0].RunID != first.RunID || got[0].Relevance < 0.35 || got[0].Relevance > 1 || got[0].Created.IsZero() {
		t.Fatalf("recalled = %+v; want the first run's outcome, how relevant it is and when it was written", got)
	}
}

// A run's own memory mode holds over the setup's, and through a resume:
// "off" neither recalls nor writes, "read" recalls only; run.started says
// which, and as of when the memory stood.
func TestMemory_RunsOwnMode(t *testing.T) {
	release := make(chan struct{})
	srv := llmtest.NewServer(t,
		llmtest.Step{Content: "Q3 revenue was 1,204,000."},
		llmtest.Step{ToolCalls: []llm.ToolCall{call("l1", "list_files", map[string]any{"path": "."})}, Wait: release},
		llmtest.Step{Content: "Q3 revenue is 1,300,000 now."},
		llmtest.Step{Content: "Read it."},
	)
	h := newHarness(t, srv)
	h.setup.Memory = agent.MemoryOn
	first, _ := memoryRun(t, h, "Compile the Q3 sales report", "")

	// Off, stopped and resumed: it never recalls nor writes.
	sub := h.setup.Bus.Subscribe(1024, nil)
	r, err := agent.NewRun(h.setup, agent.Task{Text: "Update the Q3 sales report", Workspace: h.ws, Memory: agent.MemoryOff})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		waitFor(t, sub.C, event.IterationStarted)
		r.Controls().Stop()
		close(release)
	}()
	res, events := h.execute(r, t.Context())
	h.setup.Bus.Unsubscribe(sub)
	if res.Status != event.StatusStopped {
		t.Fatalf("first leg = %+v", res)
	}
	started := decode[event.RunStartedData](t, ofType(events, event.RunStarted)[0])
	if started.Memory == nil || started.Memory.Mode != "off" || !started.Memory.AsOf.IsZero() {
		t.Fatalf("run.started memory = %+v, want off", started.Memory)
	}
	if got := recalled(t, events); len(got) != 0 {
		t.Fatalf("memory off recalled %+v", got)
	}
	resumed, err := agent.ResumeRun(h.setup, r.ID())
	if err != nil {
		t.Fatal(err)
	}
	res, events = h.execute(resumed, t.Context())
	if res.Status != event.StatusFinished || !res.Verified {
		t.Fatalf("resumed = %+v", res)
	}
	if refs := written(t, events); len(refs) != 0 {
		t.Fatalf("memory off, resumed, wrote %+v", refs)
	}

	// Read, as of the first run's start: nothing it wrote, nothing written.
	r, err = agent.NewRun(h.setup, agent.Task{Text: "Update the Q3 sales report", Workspace: h.ws, Memory: agent.MemoryRead, MemoryAsOf: time.Now().Add(-time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	_, events = h.execute(r, t.Context())
	started = decode[event.RunStartedData](t, ofType(events, event.RunStarted)[0])
	if started.Memory == nil || started.Memory.Mode != "read" || started.Memory.AsOf.IsZero() {
		t.Fatalf("run.started memory = %+v, want read as of a time", started.Memory)
	}
	if got := recalled(t, events); len(got) != 0 {
		t.Fatalf("a run as of before %s recalled %+v", first.RunID, got)
	}
	if refs := written(t, events); len(refs) != 0 {
		t.Fatalf("memory read wrote %+v", refs)
	}
}
