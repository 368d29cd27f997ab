package agent_test

import (
	"math"
	"testing"
	"time"

	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/price"
	"hermes/backend/runlog"
)

// Each turn's cost is its usage at the run's model's price, the cached and
// reasoning parts at their own rates; the totals and the run summary add up
// the same figures, and the turn says how long its first token took.
func TestRun_CostAndFirstToken(t *testing.T) {
	u1 := llm.Usage{PromptTokens: 1000, CachedTokens: 400, CompletionTokens: 200, ReasoningTokens: 50, TotalTokens: 1200}
	u2 := llm.Usage{PromptTokens: 2000, CompletionTokens: 100, TotalTokens: 2100}
	srv := llmtest.NewServer(t,
		llmtest.Step{Content: "Looking.", ToolCalls: []llm.ToolCall{call("c1", "list_files", map[string]string{"path": "."})}, Usage: u1,
			Delay: 60 * time.Millisecond, Chunks: 3, ChunkDelay: 20 * time.Millisecond},
		llmtest.Step{Content: "Done.", Usage: u2},
	)
	h := newHarness(t, srv)
	p := price.Price{Input: 0.27, CachedInput: 0.07, Output: 1.10, Reasoning: 2.19, Currency: "USD"}
	h.setup.Prices = price.Table{"test-model": p}
	res, events := h.run("List the files")
	if res.Status != event.StatusFinished {
		t.Fatalf("result = %+v", res)
	}
	decided := ofType(events, event.ModelDecided)
	var sum float64
	for i, u := range []llm.Usage{u1, u2} {
		d := decode[event.ModelDecidedData](t, decided[i])
		if d.Cost == nil || math.Abs(*d.Cost-p.Of(u)) > 1e-12 || d.Currency != "USD" {
			t.Fatalf("turn %d costs %v %s, want %v USD", i+1, d.Cost, d.Currency, p.Of(u))
		}
		sum += *d.Cost
	}
	want := (600*0.27 + 400*0.07 + 150*1.10 + 50*2.19) / 1e6
	if d := decode[event.ModelDecidedData](t, decided[0]); math.Abs(*d.Cost-want) > 1e-12 {
		t.Fatalf("turn 1 costs %v, want %v", *d.Cost, want)
	}
	tot := finished(t, events).Totals
	if tot.Cost == nil || math.Abs(*tot.Cost-sum) > 1e-12 || tot.Currency != "USD" || tot.CachedTokens != 400 {
		t.Fatalf("totals cost %v %s cached %d, want %v USD, 400", tot.Cost, tot.Currency, tot.CachedTokens, sum)
	}
	for name, s := range map[string]runlog.Summary{"live": runlog.Summarize(events[:len(events)-1]), "finished": runlog.Summarize(events)} {
		if s.Cost == nil || math.Abs(*s.Cost-sum) > 1e-12 || s.Currency != "USD" {
			t.Errorf("the %s summary costs %v %s, want %v USD", name, s.Cost, s.Currency, sum)
		}
	}

	first := decode[event.ModelDecidedData](t, decided[0])
	if first.FirstTokenMS < 60 || first.FirstTokenMS > first.LatencyMS-30 {
		t.Errorf("first token after %d ms of %d; want at least the 60 ms delay, and the 2 chunk waits after it", first.FirstTokenMS, first.LatencyMS)
	}
}

// A model without a price has no cost anywhere: unknown, never 0.
func TestRun_UnpricedModelHasNoCost(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Step{Content: "Done."})
	h := newHarness(t, srv)
	h.setup.Prices = price.Table{"another-model": {Input: 1, Output: 1, Currency: "USD"}}
	_, events := h.run("Say done")
	if d := decode[event.ModelDecidedData](t, ofType(events, event.ModelDecided)[0]); d.Cost != nil {
		t.Fatalf("an unpriced turn costs %v", *d.Cost)
	}
	if c := finished(t, events).Totals.Cost; c != nil {
		t.Fatalf("an unpriced run costs %v", *c)
	}
	if s := runlog.Summarize(events); s.Cost != nil {
		t.Fatalf("an unpriced run's summary costs %v", *s.Cost)
	}
}
