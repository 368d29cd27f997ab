package cli

import (
	"strings"
	"testing"
	"time"

	"hermes/backend/event"
	"hermes/backend/i18n"
	"hermes/backend/llm"
	"hermes/backend/runlog"
)

// hermes runs prints each run's cost as its events priced it, and "—" for
// a run whose model has no price, never 0.
func TestRuns_CostColumn(t *testing.T) {
	useLang(t, i18n.EN)
	home := t.TempDir()
	cost := 0.01234
	for _, r := range []struct {
		id   string
		cost *float64
	}{{"20261130-090000-aaaaaa", &cost}, {"20261130-100000-bbbbbb", nil}} {
		started := day.Add(9 * time.Hour)
		w, err := runlog.Create(home, r.id, started)
		if err != nil {
			t.Fatal(err)
		}
		em := event.NewEmitter(r.id, event.EmitterOptions{Sinks: []event.Sink{w}, Now: func() time.Time { return started }})
		usage := llm.Usage{PromptTokens: 1000, CompletionTokens: 200, TotalTokens: 1200}
		currency := ""
		if r.cost != nil {
			currency = "USD"
		}
		for _, e := range []struct {
			typ  event.Type
			data any
		}{
			{event.RunStarted, event.RunStartedData{Task: "Task " + r.id, Model: "m"}},
			{event.ModelDecided, event.ModelDecidedData{FinalAnswer: "ok", Usage: usage, Cost: r.cost, Currency: currency}},
			{event.RunFinished, event.RunFinishedData{Status: event.StatusFinished, Totals: event.Totals{Iterations: 1, TotalTokens: 1200, Cost: r.cost, Currency: currency}}},
		} {
			if _, err := em.Emit(e.typ, 1, e.data); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errOut := runCLI(t, "runs", "--home", home)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"COST", "$0.0123"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "bbbbbb") && (!strings.Contains(line, "—") || strings.Contains(line, "0.0000")) {
			t.Errorf("the unpriced run's line %q does not show —", line)
		}
	}
}
