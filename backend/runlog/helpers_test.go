package runlog

import (
	"strings"
	"testing"
	"time"

	"hermes/backend/event"
	"hermes/backend/llm"
)

// logRun writes a run's log under home through a real Emitter and returns
// the emitted events. script emits the events; the writer is closed after.
func logRun(t testing.TB, home, runID string, started time.Time, script func(em *event.Emitter)) []event.Event {
	t.Helper()
	w, err := Create(home, runID, started)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	clock := started
	em := event.NewEmitter(runID, event.EmitterOptions{
		Sinks: []event.Sink{w, rec},
		Now:   func() time.Time { clock = clock.Add(time.Millisecond); return clock },
	})
	script(em)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return rec.events
}

type recorder struct{ events []event.Event }

func (r *recorder) Write(e event.Event) error {
	r.events = append(r.events, e)
	return nil
}

func mustEmit(t testing.TB, em *event.Emitter, typ event.Type, iteration int, payload any) {
	t.Helper()
	if _, err := em.Emit(typ, iteration, payload); err != nil {
		t.Fatal(err)
	}
}

func emitStart(t testing.TB, em *event.Emitter, task string) {
	mustEmit(t, em, event.RunStarted, 0, event.RunStartedData{
		Task: task, Workspace: "/ws", Model: "gpt-4o-mini", BaseURL: "http://127.0.0.1:1/v1",
		MaxIterations: 25, Tools: []string{"list_files", "read_file", "write_file"},
	})
}

// emitIteration emits one realistic iteration: context, a decision with one
// tool call, the call and its result, and a checkpoint.
func emitIteration(t testing.TB, em *event.Emitter, i int, tokens int) {
	mustEmit(t, em, event.IterationStarted, i, event.IterationStartedData{})
	mustEmit(t, em, event.ContextBuilt, i, event.ContextBuiltData{
		Tokens: 1200, Window: 128000, MessageCount: 2 * i,
		Messages: []llm.Message{{Role: llm.RoleTool, ToolCallID: "call_1", Content: strings.Repeat("file contents <b>&</b> ", 20)}},
	})
	mustEmit(t, em, event.ModelDelta, i, event.ModelDeltaData{Text: "Let me look."})
	mustEmit(t, em, event.ModelDecided, i, event.ModelDecidedData{
		Thought:   "Let me look.",
		ToolCalls: []event.DecidedCall{{ID: "call_1", Name: "read_file", Arguments: `{"path":"a.txt"}`, Valid: true}},
		Usage:     llm.Usage{PromptTokens: tokens - 10, CompletionTokens: 10, TotalTokens: tokens},
	})
	mustEmit(t, em, event.ToolStarted, i, event.ToolStartedData{CallID: "call_1", Name: "read_file", Arguments: `{"path":"a.txt"}`, Attempt: 1})
	mustEmit(t, em, event.ToolFinished, i, event.ToolFinishedData{
		CallID: "call_1", Name: "read_file", OK: true, Result: strings.Repeat("line of text\n", 100), Size: 1300, Attempt: 1,
	})
	mustEmit(t, em, event.CheckpointSaved, i, event.CheckpointSavedData{Messages: 2 * i})
}

func emitFinish(t testing.TB, em *event.Emitter, iteration int, status, answer string) {
	mustEmit(t, em, event.RunFinished, iteration, event.RunFinishedData{
		Status: status, Answer: answer, Verified: status == event.StatusFinished,
		Totals: event.Totals{Iterations: iteration},
	})
}

// wrap cuts s into lines of width characters joined by sep, as base64
// (76) and xxd -p (60) do.
func wrap(s string, width int, sep string) string {
	var lines []string
	for len(s) > width {
		lines = append(lines, s[:width])
		s = s[width:]
	}
	return strings.Join(append(lines, s), sep)
}

// pseudoRandom is n bytes that look random and are the same every run.
func pseudoRandom(n int) []byte {
	out := make([]byte, n)
	x := uint64(0x9e3779b97f4a7c15)
	for i := range out {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		out[i] = byte(x)
	}
	return out
}
