// Command gen records the sample run: it runs the real loop, with the real
// file tools in a throw-away workspace, against llmtest playing a model that
// summarises a week of meeting notes (several iterations, reads and a write,
// a model retry, a guard warning, streamed text), and writes the run's log
// with the machine's paths replaced by neutral ones.
//
//	go generate ./backend/runner/sample   (or: go run ./gen -o sample.jsonl in that directory)
//
// With -run controls it records controls.jsonl instead, a short steered run
// (see recordControls).
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"strings"
	"time"

	"hermes/backend/agent"
	"hermes/backend/agent/agenttest"
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
)

// Shown in place of the machine's temporary directories and the scripted
// server's address.
const (
	shownWorkspace = "~/meeting-notes"
	shownBaseURL   = "https://api.example.com/v1"
	modelName      = "sample-model"
	recordingKey   = "sk-sample-recording-key"
)

func main() {
	out := flag.String("o", "sample.jsonl", "where to write the recorded log")
	which := flag.String("run", "sample", "which run to record: sample or controls")
	flag.Parse()
	tb, err := agenttest.NewProcess("hermes-sample-")
	if err != nil {
		log.Fatal(err)
	}
	rec := record
	if *which == "controls" {
		rec = recordControls
	}
	err = rec(tb, *out)
	tb.Close()
	if err != nil {
		log.Fatal(err)
	}
}

func record(tb *agenttest.Process, out string) error {
	next := 0
	srv := llmtest.NewFuncServer(tb, func(llmtest.Request) llmtest.Step {
		if next >= len(script) {
			tb.Errorf("the model was asked %d times; the script has %d answers", next+1, len(script))
			return llmtest.Step{Status: 500}
		}
		step := script[next]
		next++
		step.Wait = thinking(step)
		return step
	})
	files := map[string]string{}
	for name, text := range notes {
		files["notes/"+name] = text
	}
	h := agenttest.New(tb, srv, agenttest.Options{Key: recordingKey, Model: modelName, Files: files})
	h.Setup.Limits = agent.Limits{MaxIterations: 12, ContextWindow: 128000}
	run, res, _ := h.Run(context.Background(), agent.Task{
		Text:         "Summarise this week's meeting notes in notes/ into SUMMARY.md, with the decisions and a list of action items with owners.",
		Instructions: "Keep the summary under one page. Use the names as they appear in the notes.",
	})
	if res.Status != event.StatusFinished || tb.Failed() {
		return fmt.Errorf("the sample run ended %s (%s); fix the script", res.Status, res.Error)
	}
	return writeShown(tb, h, run, out, shownWorkspace)
}

// writeShown writes the run's log to out with the machine's paths and the
// scripted server's address replaced by neutral ones.
func writeShown(tb *agenttest.Process, h *agenttest.Home, run *agent.Run, out, workspace string) error {
	raw, err := os.ReadFile(run.LogPath())
	if err != nil {
		return err
	}
	raw = bytes.ReplaceAll(raw, []byte(h.Workspace), []byte(workspace))
	raw = bytes.ReplaceAll(raw, []byte(h.Server.URL), []byte(shownBaseURL))
	if bytes.Contains(raw, []byte(tb.Root)) {
		return fmt.Errorf("the log still names %s", tb.Root)
	}
	return os.WriteFile(out, raw, 0o644)
}

// thinking delays an answer as a real model would, so that the replayed
// sample shows plausible latencies and durations.
func thinking(step llmtest.Step) <-chan struct{} {
	ready := make(chan struct{})
	time.AfterFunc(300*time.Millisecond+time.Duration(len(step.Content))*4*time.Millisecond, func() { close(ready) })
	return ready
}

func jsonString(s string) string {
	b, _ := json.Marshal(s) // a string always encodes
	return string(b)
}

func call(id, name, args string) llm.ToolCall {
	return llm.ToolCall{ID: id, Name: name, Arguments: args}
}

var notes = map[string]string{
	"2026-03-02-standup.md": `# Stand-up, Monday 2 March

- Lena: the export job still times out on accounts with more than 50k rows.
- Marco: finished the new onboarding emails; waiting for copy review.
- Priya: on call this week.

Decision: export fixes take priority over new features until Friday.
`,
	"2026-03-04-planning.md": `# Sprint planning, Wednesday 4 March

Goal: ship paginated exports (issue #412) by 13 March.

- Lena splits the export into pages of 10k rows.
- Priya adds a progress bar to the export dialog.
- Marco drafts the release note.

Decision: the old CSV endpoint stays for one more release, marked deprecated.
`,
	"2026-03-06-retro.md": `# Retro, Friday 6 March

Went well: on-call was quiet; onboarding emails got good feedback.
To improve: reviews waited two days on average.

Action: Marco proposes a review rota by Tuesday.
Action: Priya writes the on-call handover template.
`,
}

const summary = `# Meeting notes, week of 2 March

## Decisions
- Export fixes come before new features until Friday 6 March.
- Paginated exports (#412) ship by 13 March; the old CSV endpoint stays one more release, deprecated.

## Action items
| owner | action | due |
|---|---|---|
| Lena | split the export into pages of 10k rows | 13 March |
| Priya | progress bar in the export dialog | 13 March |
| Priya | on-call handover template | — |
| Marco | release note for paginated exports | 13 March |
| Marco | propose a review rota | Tuesday 10 March |
`

var script = []llmtest.Step{
	{Content: "I'll start by looking at what is in the notes folder.", Chunks: 4,
		ToolCalls: []llm.ToolCall{call("call_list", "list_files", `{"path":"notes"}`)}},
	{Content: "Three meeting notes from this week. I'll read them together.", Chunks: 3,
		ToolCalls: []llm.ToolCall{
			call("call_read_1", "read_file", `{"path":"notes/2026-03-02-standup.md"}`),
			call("call_read_2", "read_file", `{"path":"notes/2026-03-04-planning.md"}`),
			call("call_read_3", "read_file", `{"path":"notes/2026-03-06-retro.md"}`),
		}},
	{Status: 503, RetryAfter: "0", Content: "the model is overloaded, try again"},
	{Content: "Before writing, I'll check whether an action list already exists, so I don't duplicate it.", Chunks: 4,
		ToolCalls: []llm.ToolCall{call("call_actions", "read_file", `{"path":"ACTIONS.md"}`)}},
	{Content: "SUMMARY.md is ready with the decisions and action items.", Chunks: 2},
	{Content: "Right: ACTIONS.md does not exist and I have not written anything yet. I'll put the action items in SUMMARY.md itself.", Chunks: 5,
		ToolCalls: []llm.ToolCall{call("call_write", "write_file", `{"path":"SUMMARY.md","content":`+jsonString(summary)+`}`)}},
	{Content: "Let me read it back to check it.", Chunks: 2,
		ToolCalls: []llm.ToolCall{call("call_check", "read_file", `{"path":"SUMMARY.md"}`)}},
	{Content: strings.Join([]string{
		"I wrote SUMMARY.md with the week's two decisions and five action items with owners and dates.",
		"There was no ACTIONS.md, so the action items are in the summary itself.",
		"I checked the file by reading it back: it has both sections and all five items.",
	}, " "), Chunks: 8},
}
