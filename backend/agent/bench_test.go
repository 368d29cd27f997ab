package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"hermes/backend/agent"
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/memory"
	"hermes/backend/runlog"
	"hermes/backend/skills"
)

const benchIterations = 1000

// scriptedModel answers instantly: a call of the no-op tool with fresh
// arguments each turn (so no guard trips), then a final answer.
type scriptedModel struct{ turns, calls int }

func (m *scriptedModel) Chat(_ context.Context, req llm.Request) (llm.Response, error) {
	m.calls++
	if m.calls >= m.turns {
		return llm.Response{Content: "done", Usage: llm.Usage{PromptTokens: 100, CompletionTokens: 1}}, nil
	}
	if req.OnDelta != nil {
		req.OnDelta("step ")
	}
	return llm.Response{
		Content:   "step",
		ToolCalls: []llm.ToolCall{{ID: fmt.Sprintf("c%d", m.calls), Name: "noop", Arguments: fmt.Sprintf(`{"n":%d}`, m.calls)}},
		Usage:     llm.Usage{PromptTokens: 100, CompletionTokens: 10},
	}, nil
}

var noop = skills.Tool{
	Name: "noop", Description: "Does nothing. Use in benchmarks.", Risk: skills.RiskRead,
	Parameters: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","description":"a counter"}}}`),
	Run:        func(context.Context, skills.Env, json.RawMessage) (string, error) { return "ok", nil },
}

func benchSetup(b *testing.B, model agent.Model) agent.Setup {
	home := b.TempDir()
	store, err := memory.Open(filepath.Join(home, "hermes.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { store.Close() })
	reg := skills.NewRegistry()
	for _, t := range append(skills.FileTools(), noop) {
		if err := reg.Register(t); err != nil {
			b.Fatal(err)
		}
	}
	return agent.Setup{
		Home: home, Store: store, Bus: event.NewBus(), Redactor: runlog.NewRedactor(testKey),
		Model: model, ModelName: "bench", Tools: reg,
		Limits: agent.Limits{MaxIterations: benchIterations + 1},
	}
}

// BenchmarkLoop measures the loop's own cost per iteration (context,
// events, log, checkpoint) over a 1,000-iteration run against a model and a
// tool that cost nothing, and whether it stays flat as the run grows.
func BenchmarkLoop(b *testing.B) {
	for b.Loop() {
		setup := benchSetup(b, &scriptedModel{turns: benchIterations})
		reportRun(b, setup)
	}
}

// BenchmarkLoopHTTP is the same run through the real client and a scripted
// server on loopback; the difference to BenchmarkLoop is the HTTP round trip
// and JSON of a conversation that grows with every turn.
func BenchmarkLoopHTTP(b *testing.B) {
	for b.Loop() {
		var n int
		srv := llmtest.NewFuncServer(b, func(llmtest.Request) llmtest.Step {
			n++
			if n >= benchIterations {
				return llmtest.Step{Content: "done"}
			}
			return llmtest.Step{Content: "step", ToolCalls: []llm.ToolCall{{ID: fmt.Sprintf("c%d", n), Name: "noop", Arguments: fmt.Sprintf(`{"n":%d}`, n)}}}
		})
		client := llm.New(llm.Config{BaseURL: srv.URL, APIKey: testKey, Model: "bench", Stream: true})
		reportRun(b, benchSetup(b, client))
	}
}

func reportRun(b *testing.B, setup agent.Setup) {
	run, err := agent.NewRun(setup, agent.Task{Text: "benchmark", Workspace: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	res := run.Execute(b.Context())
	total := time.Since(start)
	if res.Status != event.StatusFinished || res.Totals.Iterations != benchIterations {
		b.Fatalf("run ended %s after %d iterations: %s", res.Status, res.Totals.Iterations, res.Error)
	}
	var mem runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&mem)

	events, err := runlog.ReadFile(run.LogPath())
	if err != nil {
		b.Fatal(err)
	}
	// Iteration i's cost is the time from its start to the next one's.
	var starts []time.Time
	for _, e := range events {
		if e.Type == event.IterationStarted {
			starts = append(starts, e.Time)
		}
	}
	window := func(from, to int) float64 {
		return float64(starts[to].Sub(starts[from]).Microseconds()) / float64(to-from) / 1000
	}
	b.ReportMetric(float64(total.Microseconds())/benchIterations/1000, "ms/iteration")
	b.ReportMetric(window(1, 101), "ms/iter-first100")
	b.ReportMetric(window(len(starts)-101, len(starts)-1), "ms/iter-last100")
	b.ReportMetric(float64(mem.HeapAlloc)/(1<<20), "MB-heap-at-end")
}

// planModel is scriptedModel under the plan strategy: it writes a plan of
// three steps, serves step 1 with every call and finishes the steps in the
// last turns, and answers the checks at once.
type planModel struct{ turns, calls int }

func (m *planModel) Chat(_ context.Context, req llm.Request) (llm.Response, error) {
	usage := llm.Usage{PromptTokens: 100, CompletionTokens: 10}
	switch stageOf(req.Messages) {
	case stagePlan:
		return llm.Response{Content: `{"steps": [` +
			`{"description": "Count up", "tools": ["noop"], "acceptance": "counted"},` +
			`{"description": "Count on", "tools": ["noop"], "acceptance": "counted"},` +
			`{"description": "Count to the end", "tools": ["noop"], "acceptance": "counted"}]}`, Usage: usage}, nil
	case stageEvaluate:
		return llm.Response{Content: `{"passed": true, "reason": "counted"}`, Usage: usage}, nil
	case stageConfidence:
		return llm.Response{Content: `{"confidence": 0.9, "reason": "counted"}`, Usage: usage}, nil
	}
	m.calls++
	if m.calls >= m.turns {
		return llm.Response{Content: "done", Usage: usage}, nil
	}
	step, status := 1, "continue"
	if left := m.turns - m.calls; left <= 3 {
		step, status = 4-left, "finished"
	}
	args := fmt.Sprintf(`{"n":%d,"_meta":{"step":%d,"step_status":%q,"serves_goal":"count for the benchmark"}}`, m.calls, step, status)
	return llm.Response{Content: "step", ToolCalls: []llm.ToolCall{{ID: fmt.Sprintf("c%d", m.calls), Name: "noop", Arguments: args}}, Usage: usage}, nil
}

// BenchmarkLoopPlan is BenchmarkLoop under the plan strategy: the plan in
// the anchor, _meta added to the schemas and taken out of every call, the
// drift check of every decision.
func BenchmarkLoopPlan(b *testing.B) {
	for b.Loop() {
		setup := benchSetup(b, &planModel{turns: benchIterations})
		setup.Strategy = agent.StrategyPlan
		reportRun(b, setup)
	}
}
