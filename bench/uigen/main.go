// Command uigen writes a long run into a Hermes home for bench/ui.sh: one
// run log of N iterations (about ten events each) written through the real
// emitter and run log, with growing contexts, one or two tool calls per
// turn, streamed text, a compression every 100 iterations and a guard
// warning every 50. It prints the run's id.
//
//	go run ./bench/uigen [-iterations 1000] HOME
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/runlog"
)

func main() {
	iterations := flag.Int("iterations", 1000, "model turns to write")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: uigen [-iterations N] HOME")
		os.Exit(2)
	}
	id, err := generate(flag.Arg(0), *iterations)
	if err != nil {
		fmt.Fprintln(os.Stderr, "uigen:", err)
		os.Exit(1)
	}
	fmt.Println(id)
}

// clock advances a fixed step on every event, so the run has realistic
// durations without taking them.
type clock struct{ t time.Time }

func (c *clock) now() time.Time {
	c.t = c.t.Add(37 * time.Millisecond)
	return c.t
}

func generate(home string, n int) (string, error) {
	c := &clock{t: time.Now().Add(-time.Duration(n) * 400 * time.Millisecond)}
	started := c.t
	id := runlog.NewRunID(started)
	w, err := runlog.Create(home, id, started)
	if err != nil {
		return "", err
	}
	em := event.NewEmitter(id, event.EmitterOptions{Sinks: []event.Sink{w}, Now: c.now})
	emit := func(t event.Type, it int, payload any) {
		if err == nil {
			_, err = em.Emit(t, it, payload)
		}
	}
	const task = "Audit every Markdown note in the vault: fix broken wikilinks, add missing front matter, and list what changed in AUDIT.md."
	system := llm.Message{Role: llm.RoleSystem, Content: "You are Hermes, an agent that completes the user's task by calling the tools you are given."}
	anchor := llm.Message{Role: llm.RoleUser, Content: "Task:\n" + task}
	emit(event.RunStarted, 0, event.RunStartedData{
		Task: task, Workspace: "~/vault", Model: "bench-model", MaxIterations: n, Tools: []string{"list_files", "read_file", "write_file"},
	})
	var pending []llm.Message // messages added since the previous request
	recent := 0
	totals := event.Totals{}
	for it := 1; it <= n && err == nil; it++ {
		emit(event.IterationStarted, it, event.IterationStartedData{})
		full := it == 1 || it%100 == 0
		messages := pending
		if full {
			messages = append([]llm.Message{system, anchor}, pending...)
			recent = 0
		}
		recent += 180 * len(pending)
		layers := event.Layers{System: 420, ToolSchemas: 610, TaskAnchor: 60, Summary: min(it*3, 900), Recent: recent / 2, ToolResults: recent / 2}
		emit(event.ContextBuilt, it, event.ContextBuiltData{
			Layers: layers, Tokens: layers.Total(), Window: 128000, BudgetShare: float64(layers.Total()) / 128000,
			Compressed: it%100 == 0, MessageCount: 2 + it*3, Full: full, Messages: messages, ToolNames: []string{"list_files", "read_file", "write_file"},
		})
		thought := fmt.Sprintf("Note %d of the vault next: I will read it, check its links against the index, and fix what is broken.", it)
		for _, part := range splitThree(thought) {
			emit(event.ModelDelta, it, event.ModelDeltaData{Text: part})
		}
		calls := []event.DecidedCall{{ID: fmt.Sprintf("call_%d_1", it), Name: "read_file", Arguments: fmt.Sprintf(`{"path":"notes/%04d.md"}`, it), Valid: true}}
		if it%3 != 0 {
			calls = append(calls, event.DecidedCall{ID: fmt.Sprintf("call_%d_2", it), Name: "list_files", Arguments: fmt.Sprintf(`{"path":"notes/%02d"}`, it%40), Valid: true})
		}
		usage := llm.Usage{PromptTokens: layers.Total(), CompletionTokens: 40 + it%30}
		usage.TotalTokens = usage.PromptTokens + usage.CompletionTokens
		emit(event.ModelDecided, it, event.ModelDecidedData{Thought: thought, ToolCalls: calls, Usage: usage, LatencyMS: 800 + int64(it%7)*90, Attempts: 1})
		assistant := llm.Message{Role: llm.RoleAssistant, Content: thought}
		pending = nil
		var results []llm.Message
		for _, dc := range calls {
			assistant.ToolCalls = append(assistant.ToolCalls, llm.ToolCall{ID: dc.ID, Name: dc.Name, Arguments: dc.Arguments})
			emit(event.ToolStarted, it, event.ToolStartedData{CallID: dc.ID, Name: dc.Name, Arguments: dc.Arguments, Attempt: 1})
			result := noteText(it, dc.Name)
			emit(event.ToolFinished, it, event.ToolFinishedData{CallID: dc.ID, Name: dc.Name, OK: true, Result: result, Size: len(result), DurationMS: 2 + int64(it%5), Attempt: 1})
			results = append(results, llm.Message{Role: llm.RoleTool, Content: result, ToolCallID: dc.ID, Name: dc.Name})
		}
		pending = append(append(pending, assistant), results...)
		if it%50 == 0 {
			emit(event.GuardTripped, it, event.GuardTrippedData{Guard: event.GuardRepeatedCall, Action: event.ActionWarn, Message: "the same call was made 3 times in a row; try another approach"})
		}
		emit(event.CheckpointSaved, it, event.CheckpointSavedData{Messages: 2 + it*3})
		totals.Iterations = it
		totals.PromptTokens += usage.PromptTokens
		totals.CompletionTokens += usage.CompletionTokens
		totals.TotalTokens += usage.TotalTokens
		totals.ToolCalls += len(calls)
	}
	totals.DurationMS = c.t.Sub(started).Milliseconds()
	emit(event.RunFinished, n, event.RunFinishedData{Status: event.StatusFinished, Answer: "Audited the vault; AUDIT.md lists every change.", Verified: true, Totals: totals})
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	return id, err
}

func splitThree(s string) []string {
	a, b := len(s)/3, 2*len(s)/3
	return []string{s[:a], s[a:b], s[b:]}
}

// noteText is a plausible tool result of a few hundred bytes.
func noteText(it int, tool string) string {
	if tool == "list_files" {
		var b strings.Builder
		for i := range 6 {
			fmt.Fprintf(&b, "notes/%02d/%04d.md (%d bytes)\n", it%40, it*6+i, 900+i*37)
		}
		return b.String()
	}
	front, _ := json.Marshal(map[string]any{"title": fmt.Sprintf("Note %d", it), "tags": []string{"vault", "audit"}})
	return fmt.Sprintf("---\n%s\n---\n# Note %d\nLinks to [[Note %d]] and [[Missing %d]].\nThe body of the note goes on for a few lines, as notes do,\nwith a list:\n- one\n- two\n- three\n", front, it, it-1, it)
}
