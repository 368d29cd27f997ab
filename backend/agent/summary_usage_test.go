package agent_test

import (
	"testing"

	"hermes/backend/event"
	"hermes/backend/runlog"
)

// A compression's summary call is paid for like any request: its usage
// rides on summary.updated, so the run's live token count (the Go fold of
// every event before run.finished) is the run's total, summaries included.
func TestContext_SummaryUsageCountsLive(t *testing.T) {
	script := &longScript{pages: 10}
	h := longHarness(t, script)
	res, events := h.run(longTask)
	if res.Status != event.StatusFinished {
		t.Fatalf("result = %+v", res)
	}
	updates := ofType(events, event.SummaryUpdated)
	if len(updates) == 0 {
		t.Fatal("the run never compressed")
	}
	summaries := 0
	for _, e := range updates {
		d := decode[struct {
			Usage struct {
				PromptTokens     int `json:"prompt_tokens"`
				CompletionTokens int `json:"completion_tokens"`
				TotalTokens      int `json:"total_tokens"`
			} `json:"usage"`
		}](t, e)
		if d.Usage.PromptTokens == 0 || d.Usage.CompletionTokens == 0 || d.Usage.TotalTokens != d.Usage.PromptTokens+d.Usage.CompletionTokens {
			t.Errorf("summary.updated at iteration %d carries usage %+v, want the provider's", e.Iteration, d.Usage)
		}
		summaries += d.Usage.TotalTokens
	}
	if got := res.Totals.StageTokens[event.SpentSummary]; got != summaries {
		t.Errorf("the totals count %d summary tokens, the events %d", got, summaries)
	}
	live := runlog.Summarize(events[:len(events)-1])
	if live.Tokens != res.Totals.TotalTokens {
		t.Errorf("the live fold counts %d tokens, the run's totals %d (summaries %d)", live.Tokens, res.Totals.TotalTokens, summaries)
	}
}
