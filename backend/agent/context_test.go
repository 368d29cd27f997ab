package agent_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"hermes/backend/agent"
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/toolbox"
)

// planted are values in the first pages of the long task that must survive
// every compression.
var planted = []string{"INV-2024-0042", "https://files.example.test/q3/report.csv", "/srv/archive/ledger-2026-03-14.db", "$98,765.43"}

const (
	longTask  = "Read every page file in the workspace, in order, and report the invoice number, the source, the ledger and the audited total."
	window    = 12000
	threshold = 7200 // 0.6 of the window
)

// longScript answers the loop with one read_file call per page, then a
// final answer, and answers summary requests (those without tools) with a
// summary that keeps only the invoice number, or with the failure fail
// chooses by the summary request's number.
type longScript struct {
	pages int
	fail  func(n int) bool

	mu              sync.Mutex
	loop, summaries int
}

func (s *longScript) answer(req llmtest.Request) llmtest.Step {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(req.Tools) == 0 {
		s.summaries++
		if s.fail != nil && s.fail(s.summaries) {
			return llmtest.Step{Status: 400, Content: "scripted summary failure"}
		}
		return llmtest.Step{Content: fmt.Sprintf("SUMMARY:\nSummary %d: read the pages so far; invoice INV-2024-0042 was found.\nPROGRESS:\nDone: read the first pages\nRemaining: read the rest, then report", s.summaries)}
	}
	s.loop++
	if s.loop > s.pages {
		return llmtest.Step{Content: "The invoice is INV-2024-0042; see the ledger and the source."}
	}
	return llmtest.Step{ToolCalls: []llm.ToolCall{call(fmt.Sprintf("call_%d", s.loop), "read_file", map[string]any{"path": fmt.Sprintf("page%02d.txt", s.loop-1)})}}
}

// longHarness is a workspace of 20 KB pages, the first four holding the
// planted values, and a small window that forces compression.
func longHarness(t *testing.T, script *longScript) *harness {
	t.Helper()
	h := newHarness(t, llmtest.NewFuncServer(t, script.answer), toolbox.ReadArtifactTool())
	lines := []string{
		"Invoice INV-2024-0042 was approved.",
		"The source is https://files.example.test/q3/report.csv for the quarter.",
		"The ledger lives at /srv/archive/ledger-2026-03-14.db on the server.",
		"The audited total is $98,765.43 in all.",
	}
	filler := strings.Repeat("lorem ipsum dolor sit amet consectetur adipiscing elit\n", 370)
	for i := range script.pages {
		head := fmt.Sprintf("Page %s of the audit\n", strings.Repeat("I", i%5+1))
		if i < len(lines) {
			head += lines[i] + "\n"
		}
		h.write(fmt.Sprintf("page%02d.txt", i), head+filler)
	}
	h.setup.Limits = agent.Limits{MaxIterations: 60, ContextWindow: window, CompressAt: 0.6, RecentTurns: 4, ObservationLimit: 3000}
	return h
}

// loopRequests are the requests of the loop itself, without the summaries.
func loopRequests(srv *llmtest.Server) []llmtest.Request {
	var out []llmtest.Request
	for _, r := range srv.Requests() {
		if len(r.Tools) > 0 {
			out = append(out, r)
		}
	}
	return out
}

func joined(msgs []llm.Message) string {
	var b strings.Builder
	for _, m := range msgs {
		b.WriteString(m.Content)
		b.WriteString("\n")
	}
	return b.String()
}

func TestContext_LongRunStaysUnderThreshold(t *testing.T) {
	script := &longScript{pages: 30}
	h := longHarness(t, script)
	res, events := h.run(longTask)
	if res.Status != event.StatusFinished || res.Totals.Iterations != 31 {
		t.Fatalf("result = %+v", res)
	}
	reqs := loopRequests(h.server)
	for i, r := range reqs {
		if r.Messages[0].Role != llm.RoleSystem || r.Messages[1].Role != llm.RoleUser || !strings.HasPrefix(r.Messages[1].Content, "Task:\n"+longTask) {
			t.Fatalf("request %d does not open with the task anchor: %+v", i, r.Messages[:2])
		}
	}
	compressed := 0
	for _, e := range ofType(events, event.ContextBuilt) {
		c := decode[event.ContextBuiltData](t, e)
		if c.Tokens > threshold {
			t.Errorf("iteration %d sent %d tokens, over the threshold %d", e.Iteration, c.Tokens, threshold)
		}
		if c.Compressed {
			compressed++
			if !c.Full || c.Folded == 0 || c.Layers.Summary == 0 {
				t.Errorf("compressed context.built at iteration %d: full %v folded %d layers %+v", e.Iteration, c.Full, c.Folded, c.Layers)
			}
		}
	}
	for _, e := range ofType(events, event.ModelDecided) {
		if u := decode[event.ModelDecidedData](t, e).Usage.PromptTokens; u > threshold {
			t.Errorf("the provider counted %d prompt tokens at iteration %d", u, e.Iteration)
		}
	}
	updates := ofType(events, event.SummaryUpdated)
	if compressed < 3 || len(updates) < compressed {
		t.Fatalf("%d compressed requests, %d summary.updated; want several", compressed, len(updates))
	}
	first := decode[event.SummaryUpdatedData](t, updates[0])
	if first.From != 0 || first.To <= first.From || first.TokensAfter >= first.TokensBefore || first.Previous != "" ||
		!strings.Contains(first.Progress, "Remaining:") || len(first.EntitiesAdded) == 0 {
		t.Errorf("first summary.updated = %+v", first)
	}
	second := decode[event.SummaryUpdatedData](t, updates[1])
	if second.From != first.To || second.Previous != first.Summary {
		t.Errorf("second summary.updated does not go on from the first: %+v", second)
	}
	// The values planted in the first pages are still there at the end, and
	// the progress note rides in the anchor.
	last := reqs[len(reqs)-1].Messages
	for _, p := range planted {
		if !strings.Contains(joined(last), p) {
			t.Errorf("%s was lost from the context by the end", p)
		}
	}
	if !strings.Contains(last[1].Content, "Progress so far:\nDone:") {
		t.Errorf("the anchor carries no progress note: %q", last[1].Content)
	}
	// The conversation is stored whole: compression never rewrote it.
	_, turns, err := h.setup.Store.LoadCheckpoint(res.RunID)
	if err != nil || len(turns) != 61 {
		t.Fatalf("checkpoint holds %d turns (%v), want all 61", len(turns), err)
	}
	if res.Totals.PromptTokens <= sumUsage(t, events) {
		t.Errorf("the summaries' tokens are missing from the totals: %d", res.Totals.PromptTokens)
	}
}

func sumUsage(t *testing.T, events []event.Event) int {
	n := 0
	for _, e := range ofType(events, event.ModelDecided) {
		n += decode[event.ModelDecidedData](t, e).Usage.PromptTokens
	}
	return n
}

func TestContext_FailedSummaryLosesNothing(t *testing.T) {
	script := &longScript{pages: 14, fail: func(n int) bool { return n <= 2 }}
	h := longHarness(t, script)
	res, events := h.run(longTask)
	if res.Status != event.StatusFinished {
		t.Fatalf("the run did not go on after the summary failed: %+v", res)
	}
	var failures []event.Event
	for _, e := range ofType(events, event.GuardTripped) {
		if g := decode[event.GuardTrippedData](t, e); g.Guard == event.GuardSummary {
			if g.Action != event.ActionWarn || !strings.Contains(g.Message, "nothing was dropped") {
				t.Errorf("guard = %+v", g)
			}
			failures = append(failures, e)
		}
	}
	if len(failures) != 2 || failures[1].Iteration != failures[0].Iteration+1 {
		t.Fatalf("want two summary failures on consecutive iterations, got %d", len(failures))
	}
	// The requests sent despite the failures carry every tool result so far.
	for _, r := range loopRequests(h.server)[failures[0].Iteration-1 : failures[1].Iteration] {
		results := 0
		for _, m := range r.Messages {
			if m.Role == llm.RoleTool {
				results++
			}
		}
		if calls := len(r.Messages) - 2 - results; results != calls {
			t.Fatalf("a request after a failed summary holds %d results for %d calls", results, calls)
		}
		if !strings.Contains(joined(r.Messages), "Invoice INV-2024-0042 was approved") {
			t.Fatal("the first page's result was dropped after a failed summary")
		}
	}
	updates := ofType(events, event.SummaryUpdated)
	if len(updates) == 0 || updates[0].Iteration != failures[1].Iteration+1 {
		t.Fatalf("the summary was not tried again on the next iteration")
	}
	last := loopRequests(h.server)
	for _, p := range planted {
		if !strings.Contains(joined(last[len(last)-1].Messages), p) {
			t.Errorf("%s was lost", p)
		}
	}
}

func TestContext_ResumeAfterCompression(t *testing.T) {
	script := &longScript{pages: 16}
	h := longHarness(t, script)
	r, err := agent.NewRun(h.setup, agent.Task{Text: longTask, Workspace: h.ws})
	if err != nil {
		t.Fatal(err)
	}
	sub := h.setup.Bus.Subscribe(4096, nil)
	var summary event.SummaryUpdatedData
	done := make(chan struct{})
	go func() {
		defer close(done)
		for e := range sub.C {
			if e.Type == event.SummaryUpdated && summary.Summary == "" {
				summary, _ = event.Decode[event.SummaryUpdatedData](e)
				r.Controls().Stop()
			}
		}
	}()
	res, _ := h.execute(r, t.Context())
	h.setup.Bus.Unsubscribe(sub)
	<-done
	if res.Status != event.StatusStopped || summary.To == 0 {
		t.Fatalf("first leg: %+v, summary %+v", res, summary)
	}
	before := len(loopRequests(h.server))

	resumed, err := agent.ResumeRun(h.setup, res.RunID)
	if err != nil {
		t.Fatal(err)
	}
	res, events := h.execute(resumed, t.Context())
	if res.Status != event.StatusFinished {
		t.Fatalf("resumed run = %+v", res)
	}
	next := loopRequests(h.server)[before].Messages
	if !strings.Contains(next[2].Content, summary.Summary) || !strings.HasPrefix(next[1].Content, "Task:\n"+longTask) {
		t.Fatalf("the first request after resuming lost the summary or the anchor: %+v", next[:3])
	}
	for _, m := range next {
		if m.ToolCallID == "call_1" {
			t.Fatal("a folded result came back after resuming")
		}
	}
	built := ofType(events, event.ContextBuilt)
	if c := decode[event.ContextBuiltData](t, built[len(built)-1]); c.Folded < summary.To {
		t.Errorf("after resuming, the summary covers %d messages, want at least %d", c.Folded, summary.To)
	}
	for _, p := range planted {
		if !strings.Contains(joined(loopRequests(h.server)[len(loopRequests(h.server))-1].Messages), p) {
			t.Errorf("%s was lost across the resume", p)
		}
	}
}
