package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"hermes/backend/agent"
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runlog"
	"hermes/backend/store"
	"hermes/backend/toolbox"
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

var noop = toolbox.Tool{
	Name: "noop", Description: "Does nothing. Use in benchmarks.", Risk: toolbox.RiskRead,
	Parameters: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","description":"a counter"}}}`),
	Run:        func(context.Context, toolbox.Env, json.RawMessage) (string, error) { return "ok", nil },
}

// timedStore is the real store that records, for each checkpoint, the time
// from its queueing (an iteration's end) to its being durable.
type timedStore struct {
	*store.Store
	mu      sync.Mutex
	durable []time.Duration
	wg      sync.WaitGroup
}

func (s *timedStore) QueueCheckpoint(c store.Checkpoint) *store.Saving {
	start := time.Now()
	p := s.Store.QueueCheckpoint(c)
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		if p.Wait() == nil {
			s.mu.Lock()
			s.durable = append(s.durable, time.Since(start))
			s.mu.Unlock()
		}
	}()
	return p
}

// percentiles are the p50 and p95 of d, in milliseconds.
func percentiles(d []time.Duration) (p50, p95 float64) {
	if len(d) == 0 {
		return 0, 0
	}
	slices.Sort(d)
	at := func(q float64) float64 { return float64(d[int(q*float64(len(d)-1))].Microseconds()) / 1000 }
	return at(0.50), at(0.95)
}

// busyDisk keeps the disk under dir busy, as other programs writing and
// syncing would, until the benchmark ends; HERMES_BENCH_BUSY_DISK=1 turns it on.
func busyDisk(b *testing.B, dir string) {
	if os.Getenv("HERMES_BENCH_BUSY_DISK") != "1" {
		return
	}
	stop, done := make(chan struct{}), make(chan struct{})
	b.Cleanup(func() { close(stop); <-done })
	go func() {
		defer close(done)
		f, err := os.Create(filepath.Join(dir, "busy"))
		if err != nil {
			return
		}
		defer f.Close()
		chunk := make([]byte, 1<<20)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			// Rewrite the first 64 MB over and over, each chunk synced.
			if _, err := f.WriteAt(chunk, int64(i%64)<<20); err != nil || f.Sync() != nil {
				return
			}
		}
	}()
}

func benchSetup(b *testing.B, model agent.Model) agent.Setup {
	home := b.TempDir()
	busyDisk(b, home)
	ms, err := store.Open(filepath.Join(home, "hermes.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ms.Close() })
	store := &timedStore{Store: ms}
	reg := toolbox.NewRegistry()
	for _, t := range append(toolbox.FileTools(nil), noop) {
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
	store := setup.Store.(*timedStore)
	store.wg.Wait()
	p50, p95 := percentiles(store.durable)
	b.ReportMetric(p50, "ms-durable-p50")
	b.ReportMetric(p95, "ms-durable-p95")
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
