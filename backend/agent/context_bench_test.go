package agent_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hermes/backend/agent"
	"hermes/backend/contextmgr"
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runlog"
	"hermes/backend/store"
	"hermes/backend/toolbox"
)

// BenchmarkContextLongTask runs the scripted long task (30 reads of 20 KB
// pages, then the answer) with the context manager (the default limits on a
// 32K window: compression at 0.6, 8 recent turns, results cut at 8,000
// characters) and with plain appending (no compression, no cutting, on a
// window large enough that no request is refused), and
// reports the tokens each sent, summaries included. bench/context.sh prints
// the figures per request with -v.
func BenchmarkContextLongTask(b *testing.B) {
	modes := []struct {
		name   string
		limits agent.Limits
	}{
		{"managed", agent.Limits{MaxIterations: 40, ContextWindow: 32768}},
		{"plain", agent.Limits{MaxIterations: 40, ContextWindow: 1 << 30, CompressAt: 1, ObservationLimit: 1 << 30}},
	}
	totals := map[string]int{}
	for b.Loop() {
		for _, m := range modes {
			perRequest := longTaskTokens(b, m.limits)
			total := 0
			for _, n := range perRequest {
				total += n
			}
			totals[m.name] = total
			b.Logf("%s: %d requests, tokens per request %v, total %d", m.name, len(perRequest), perRequest, total)
		}
	}
	b.ReportMetric(float64(totals["managed"]), "tokens-managed")
	b.ReportMetric(float64(totals["plain"]), "tokens-plain")
	b.ReportMetric(100*float64(totals["managed"])/float64(totals["plain"]), "%-of-plain")
}

// longTaskTokens runs the long task under limits and returns the estimated
// prompt tokens of every request the model received, in order.
func longTaskTokens(b *testing.B, limits agent.Limits) []int {
	script := &longScript{pages: 30}
	srv := llmtest.NewFuncServer(b, script.answer)
	home, ws := b.TempDir(), b.TempDir()
	store, err := store.Open(filepath.Join(home, "hermes.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	reg := toolbox.NewRegistry()
	for _, t := range append(toolbox.FileTools(nil), toolbox.ReadArtifactTool()) {
		if err := reg.Register(t); err != nil {
			b.Fatal(err)
		}
	}
	filler := strings.Repeat("lorem ipsum dolor sit amet consectetur adipiscing elit\n", 370)
	for i := range script.pages {
		if err := os.WriteFile(filepath.Join(ws, fmt.Sprintf("page%02d.txt", i)), []byte(fmt.Sprintf("Page %d of the audit\n", i)+filler), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	client := llm.New(llm.Config{BaseURL: srv.URL, APIKey: testKey, Model: "bench", Stream: true, Backoff: func(int) time.Duration { return 0 }})
	run, err := agent.NewRun(agent.Setup{
		Home: home, Store: store, Bus: event.NewBus(), Redactor: runlog.NewRedactor(testKey),
		Model: client, ModelName: "bench", Tools: reg, Limits: limits,
	}, agent.Task{Text: longTask, Workspace: ws})
	if err != nil {
		b.Fatal(err)
	}
	if res := run.Execute(b.Context()); res.Status != event.StatusFinished {
		b.Fatalf("run ended %s: %s", res.Status, res.Error)
	}
	var out []int
	for _, req := range srv.Requests() {
		n := contextmgr.EstimateTools(req.Tools)
		for _, m := range req.Messages {
			n += contextmgr.EstimateMessage(m)
		}
		out = append(out, n)
	}
	return out
}
