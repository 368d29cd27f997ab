// Package servertest writes real run logs, through backend/runlog and
// backend/event, into a home directory. The server's and the desktop app's
// tests use it, and so do the UI's end-to-end tests (through mkhome).
package servertest

import (
	"fmt"
	"time"

	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/runlog"
)

// Run describes a run to write.
type Run struct {
	Task       string
	Model      string
	Started    time.Time
	Iterations int
	// Status is one of event.Status*. StatusRunning leaves the log without a
	// run.finished, as a crash does; StatusFailed fails the last model call.
	Status string
}

// Written is what a viewer of a written run should see.
type Written struct {
	RunID      string `json:"run_id"`
	Task       string `json:"task"`
	Status     string `json:"status"`
	Iterations int    `json:"iterations"`
	Tokens     int    `json:"tokens"`
	Events     int    `json:"events"`
	Path       string `json:"path"`
}

// Each event is 150 ms after the one before, so times are distinct and the
// logs are the same on every machine.
const step = 150 * time.Millisecond

// WriteRun writes the log of r under home and returns what it holds.
func WriteRun(home string, r Run) (Written, error) {
	id := runlog.NewRunID(r.Started)
	w, err := runlog.Create(home, id, r.Started)
	if err != nil {
		return Written{}, err
	}
	now := r.Started.Add(-step)
	clock := func() time.Time { now = now.Add(step); return now }
	em := event.NewEmitter(id, event.EmitterOptions{Sinks: []event.Sink{w}, Now: clock})
	b := &builder{em: em, run: r}
	b.write()
	if cerr := w.Close(); b.err == nil {
		b.err = cerr
	}
	if b.err != nil {
		return Written{}, fmt.Errorf("write sample run %q: %w", r.Task, b.err)
	}
	return Written{
		RunID: id, Task: r.Task, Status: r.Status, Iterations: r.Iterations,
		Tokens: b.tokens, Events: int(em.LastSeq()), Path: w.Path(),
	}, nil
}

type builder struct {
	em     *event.Emitter
	run    Run
	err    error
	tokens int
	calls  int
}

func (b *builder) emit(t event.Type, iteration int, payload any) {
	if b.err != nil {
		return
	}
	_, b.err = b.em.Emit(t, iteration, payload)
}

func (b *builder) write() {
	r := b.run
	b.emit(event.RunStarted, 0, event.RunStartedData{
		Task: r.Task, Workspace: "/home/ada/notes", Model: r.Model, BaseURL: "http://127.0.0.1:11434/v1",
		MaxIterations: 25, Tools: []string{"list_files", "read_file", "write_file"},
	})
	for i := 1; i <= r.Iterations; i++ {
		last := i == r.Iterations
		b.emit(event.IterationStarted, i, event.IterationStartedData{})
		prompt := 800 + 300*i
		b.emit(event.ContextBuilt, i, event.ContextBuiltData{
			Layers: event.Layers{System: 300, TaskAnchor: 60, Recent: prompt - 560, ToolSchemas: 200},
			Tokens: prompt, Window: 128000, BudgetShare: float64(prompt) / 128000, MessageCount: 2 * i, Full: i == 1,
		})
		if last && r.Status == event.StatusFailed {
			b.emit(event.ModelRetried, i, event.ModelRetriedData{Attempt: 1, WaitMS: 500, Error: "HTTP 503 from the model endpoint"})
			break
		}
		usage := llm.Usage{PromptTokens: prompt, CompletionTokens: 40, TotalTokens: prompt + 40}
		b.tokens += usage.TotalTokens
		if last && r.Status == event.StatusFinished {
			b.emit(event.ModelDelta, i, event.ModelDeltaData{Text: "All notes are read; here is the summary."})
			b.emit(event.ModelDecided, i, event.ModelDecidedData{
				FinalAnswer: answer(r), Usage: usage, LatencyMS: 900, Attempts: 1, FinishReason: "stop",
			})
			b.emit(event.CheckpointSaved, i, event.CheckpointSavedData{Messages: 2*i + 1})
			break
		}
		args := fmt.Sprintf(`{"path":"weekly/week-%02d.md"}`, i)
		callID := fmt.Sprintf("call_%d", i)
		b.emit(event.ModelDelta, i, event.ModelDeltaData{Text: fmt.Sprintf("I will read week %d.", i)})
		b.emit(event.ModelDecided, i, event.ModelDecidedData{
			Thought:   fmt.Sprintf("I will read week %d.", i),
			ToolCalls: []event.DecidedCall{{ID: callID, Name: "read_file", Arguments: args, Valid: true}},
			Usage:     usage, LatencyMS: 700, Attempts: 1, FinishReason: "tool_calls",
		})
		b.calls++
		b.emit(event.ToolStarted, i, event.ToolStartedData{CallID: callID, Name: "read_file", Arguments: args, Attempt: 1})
		b.emit(event.ToolFinished, i, event.ToolFinishedData{
			CallID: callID, Name: "read_file", OK: true, Result: fmt.Sprintf("# Week %d\n- shipped the parser\n- fixed two bugs", i),
			Size: 1200 + 37*i, DurationMS: 4, Attempt: 1,
		})
		if last && r.Status == event.StatusGuard {
			b.emit(event.GuardTripped, i, event.GuardTrippedData{
				Guard: event.GuardRepeatedCall, Action: event.ActionStop,
				Message: "read_file was called with the same arguments four times in a row; the run was stopped",
			})
		}
		b.emit(event.CheckpointSaved, i, event.CheckpointSavedData{Messages: 2*i + 2})
	}
	if r.Status == event.StatusMaxIterations {
		b.emit(event.GuardTripped, r.Iterations, event.GuardTrippedData{
			Guard: event.GuardMaxIterations, Action: event.ActionStop,
			Message: fmt.Sprintf("the run reached max_iterations (%d) without a final answer", r.Iterations),
		})
	}
	if r.Status == event.StatusRunning {
		return
	}
	fin := event.RunFinishedData{
		Status: r.Status, Verified: r.Status == event.StatusFinished,
		Totals: event.Totals{
			Iterations: r.Iterations, PromptTokens: b.tokens, TotalTokens: b.tokens, ToolCalls: b.calls,
			DurationMS: int64(r.Iterations) * 1500,
		},
	}
	switch r.Status {
	case event.StatusFinished:
		fin.Answer = answer(r)
	case event.StatusFailed:
		fin.Error = "the model endpoint kept answering HTTP 503; check that it is running"
	default:
		fin.Resume = "hermes resume RUN_ID"
	}
	b.emit(event.RunFinished, 0, fin)
}

func answer(r Run) string {
	return fmt.Sprintf("Done: %s. Every file it needed was read; nothing was changed.", r.Task)
}

// Sample is a varied set of runs, newest first, one per status, in English
// and in Chinese, started before now.
func Sample(now time.Time) []Run {
	at := func(d time.Duration) time.Time { return now.Add(-d).UTC().Truncate(time.Second) }
	return []Run{
		{Task: "整理 Obsidian 笔记库中的周报，并生成本月摘要", Model: "deepseek-chat", Started: at(40 * time.Minute), Iterations: 3, Status: event.StatusFinished},
		{Task: "Summarise README.md and list the open TODOs", Model: "gpt-4o-mini", Started: at(26 * time.Hour), Iterations: 2, Status: event.StatusFinished},
		{Task: "Rename the photos in ./2024 by the date they were taken", Model: "qwen2.5:14b", Started: at(50 * time.Hour), Iterations: 5, Status: event.StatusGuard},
		{Task: "Draft release notes from CHANGELOG.md", Model: "gpt-4o-mini", Started: at(75 * time.Hour), Iterations: 1, Status: event.StatusRunning},
		{Task: "Count the words in every chapter of the book", Model: "llama3.1:8b", Started: at(120 * time.Hour), Iterations: 4, Status: event.StatusMaxIterations},
		{Task: "Check the links in docs/", Model: "gpt-4o-mini", Started: at(150 * time.Hour), Iterations: 1, Status: event.StatusFailed},
	}
}

// WriteSample writes Sample(now) under home and returns the runs newest first.
func WriteSample(home string, now time.Time) ([]Written, error) {
	var out []Written
	for _, r := range Sample(now) {
		w, err := WriteRun(home, r)
		if err != nil {
			return nil, err
		}
		out = append(out, w)
	}
	return out, nil
}
