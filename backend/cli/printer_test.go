package cli

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"hermes/backend/event"
	"hermes/backend/i18n"
	"hermes/backend/llm"
	"hermes/backend/runlog"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// sinkFunc lets a test put a printer or a collector behind an Emitter.
type sinkFunc func(event.Event) error

func (f sinkFunc) Write(e event.Event) error { return f(e) }

// useLang sets the language for one test and restores English after it.
func useLang(t *testing.T, l i18n.Lang) {
	t.Helper()
	i18n.SetLang(l)
	t.Cleanup(func() { i18n.SetLang(i18n.EN) })
}

// emitRun emits a realistic three-iteration run through a real Emitter: a
// streamed thought and a read, a retried non-streamed turn with a failing
// call, a refused call and a guard, then a streamed final answer.
func emitRun(t *testing.T, runID string, sinks ...event.Sink) {
	t.Helper()
	clock := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	em := event.NewEmitter(runID, event.EmitterOptions{Sinks: sinks, Now: func() time.Time {
		clock = clock.Add(100 * time.Millisecond)
		return clock
	}})
	emit := func(typ event.Type, iteration int, payload any) {
		t.Helper()
		if _, err := em.Emit(typ, iteration, payload); err != nil {
			t.Fatalf("emit %s: %v", typ, err)
		}
	}
	emit(event.RunStarted, 0, event.RunStartedData{
		Task: "Summarise a.txt and b.txt", Workspace: "notes", Model: "gpt-4o-mini",
		BaseURL: "http://127.0.0.1:9/v1", MaxIterations: 25, TokenBudget: 200000,
		Tools: []string{"list_files", "read_file", "write_file"},
	})

	emit(event.IterationStarted, 1, event.IterationStartedData{})
	emit(event.ContextBuilt, 1, event.ContextBuiltData{Tokens: 1234, Window: 128000, BudgetShare: 0.0096, MessageCount: 2, Full: true})
	emit(event.ModelDelta, 1, event.ModelDeltaData{Text: "I will read "})
	emit(event.ModelDelta, 1, event.ModelDeltaData{Text: "a.txt first."})
	emit(event.ModelDecided, 1, event.ModelDecidedData{
		Thought:   "I will read a.txt first.",
		ToolCalls: []event.DecidedCall{{ID: "c1", Name: "read_file", Arguments: `{"path":"a.txt"}`, Valid: true}},
		Usage:     llm.Usage{PromptTokens: 1234, CompletionTokens: 20, TotalTokens: 1254}, LatencyMS: 850, Attempts: 1,
	})
	emit(event.ToolStarted, 1, event.ToolStartedData{CallID: "c1", Name: "read_file", Arguments: `{"path":"a.txt"}`, Attempt: 1})
	emit(event.ToolFinished, 1, event.ToolFinishedData{CallID: "c1", Name: "read_file", OK: true,
		Result: "hello world\nsecond line", Size: 1229, DurationMS: 35, Attempt: 1})
	emit(event.CheckpointSaved, 1, event.CheckpointSavedData{Messages: 4})

	emit(event.IterationStarted, 2, event.IterationStartedData{})
	emit(event.ContextBuilt, 2, event.ContextBuiltData{Tokens: 1600, Window: 128000, BudgetShare: 0.0125, MessageCount: 4})
	emit(event.ModelRetried, 2, event.ModelRetriedData{Attempt: 1, WaitMS: 500, Error: "HTTP 503 Service Unavailable"})
	emit(event.ModelDecided, 2, event.ModelDecidedData{
		Thought: "Let me check b.txt too.",
		ToolCalls: []event.DecidedCall{
			{ID: "c2", Name: "read_file", Arguments: `{'path': 'b.txt',}`, Repaired: true, Valid: true},
			{ID: "c3", Name: "delete_all", Arguments: `{}`, Error: "unknown tool delete_all; the tools are list_files, read_file, write_file"},
		},
		Usage: llm.Usage{PromptTokens: 1600, CompletionTokens: 30, TotalTokens: 1630}, LatencyMS: 1450, Attempts: 2,
	})
	emit(event.ToolStarted, 2, event.ToolStartedData{CallID: "c2", Name: "read_file", Arguments: `{"path":"b.txt"}`, Attempt: 1})
	emit(event.ToolFinished, 2, event.ToolFinishedData{CallID: "c2", Name: "read_file",
		Error: "no such file b.txt in the workspace; call list_files to see what exists", DurationMS: 3, Attempt: 1})
	emit(event.GuardTripped, 2, event.GuardTrippedData{Guard: event.GuardInvalidCall, Action: event.ActionWarn,
		Message: "The model called a tool that does not exist.", Details: []string{"delete_all"}})
	emit(event.CheckpointSaved, 2, event.CheckpointSavedData{Messages: 7})

	emit(event.IterationStarted, 3, event.IterationStartedData{})
	emit(event.ContextBuilt, 3, event.ContextBuiltData{Tokens: 1900, Window: 128000, BudgetShare: 0.0148, MessageCount: 7})
	emit(event.ModelDelta, 3, event.ModelDeltaData{Text: "a.txt says hello world; "})
	emit(event.ModelDelta, 3, event.ModelDeltaData{Text: "b.txt does not exist."})
	emit(event.ModelDecided, 3, event.ModelDecidedData{
		FinalAnswer: "a.txt says hello world; b.txt does not exist.",
		Usage:       llm.Usage{PromptTokens: 1900, CompletionTokens: 15, TotalTokens: 1915}, LatencyMS: 600, Attempts: 1,
	})
	emit(event.CheckpointSaved, 3, event.CheckpointSavedData{Messages: 8})
	emit(event.RunFinished, 3, event.RunFinishedData{Status: event.StatusFinished, Answer: "a.txt says hello world; b.txt does not exist.",
		Verified: true, Totals: event.Totals{Iterations: 3, PromptTokens: 4734, CompletionTokens: 65, TotalTokens: 4799, ToolCalls: 2, DurationMS: 4200}})
}

// printLive prints the run as it is emitted, the way `hermes run` does.
func printLive(t *testing.T, o PrinterOptions) string {
	t.Helper()
	var out bytes.Buffer
	p := NewPrinter(&out, o)
	emitRun(t, "20261130-090000-aaaaaa", sinkFunc(func(e event.Event) error { p.Print(e); return nil }))
	p.Flush()
	return out.String()
}

func TestPrinter_Golden(t *testing.T) {
	useLang(t, i18n.EN)
	got := printLive(t, PrinterOptions{Width: 80})
	golden := filepath.Join("testdata", "printer_run.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("read golden file (run the test with -update to write it): %v", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (rerun with -update if the change is meant):\n%s", golden, got)
	}
}

func TestPrinter_PlainOutput(t *testing.T) {
	useLang(t, i18n.EN)
	out := printLive(t, PrinterOptions{Width: 80})
	if strings.Contains(out, "\x1b") {
		t.Errorf("plain output holds ANSI codes:\n%q", out)
	}
	once := []string{
		"── iteration 1 · context 1.2k/128k tokens · 1% ",
		"── iteration 2 ", "── iteration 3 ",
		"I will read a.txt first.",
		"Let me check b.txt too.",
		"a.txt says hello world; b.txt does not exist.",
		`  → read_file {"path":"a.txt"}`,
		`  → read_file {"path":"b.txt"} (repaired)`,
		"  ✓ read_file  1.2 KB  35 ms  hello world …",
		"  ✗ read_file  3 ms  no such file b.txt in the workspace;",
		"  ✗ delete_all {}",
		"refused: unknown tool delete_all",
		"↻ model attempt 1 failed, retrying in 500 ms: HTTP 503",
		"1.6k in · 30 out · 1.4 s · 2 attempts",
		"⚠ The model called a tool that does not exist. [guard invalid_call]",
		"    · delete_all",
		"── ✓ finished · answer verified ",
		"iterations 3 · tokens 4.8k (in 4.7k, out 65) · tool calls 2 · took 4.2 s",
		"  task          Summarise a.txt and b.txt",
		"· checkpoint saved · 4 messages",
	}
	for _, s := range once {
		if n := strings.Count(out, s); n != 1 {
			t.Errorf("%q appears %d times, want once, in:\n%s", s, n, out)
		}
	}
	if strings.Contains(out, "127.0.0.1") {
		t.Error("the printer shows the model's base URL; the header should stay short")
	}
	for _, l := range strings.Split(out, "\n") {
		if w := width(l); w > 80 {
			t.Errorf("line is %d columns wide, more than 80: %q", w, l)
		}
	}
}

var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

func TestPrinter_ColorIsOnlyDecoration(t *testing.T) {
	useLang(t, i18n.EN)
	plain := printLive(t, PrinterOptions{Width: 80})
	colored := printLive(t, PrinterOptions{Width: 80, Color: true})
	if !strings.Contains(colored, "\x1b[") {
		t.Fatal("colour output holds no ANSI codes")
	}
	if stripped := ansi.ReplaceAllString(colored, ""); stripped != plain {
		t.Errorf("colour output without its codes differs from plain output:\n%s\n---\n%s", stripped, plain)
	}
}

func TestPrinter_ReplayMatchesLive(t *testing.T) {
	useLang(t, i18n.EN)
	home := t.TempDir()
	runID := "20261130-090000-bbbbbb"
	w, err := runlog.Create(home, runID, time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	var live bytes.Buffer
	p := NewPrinter(&live, PrinterOptions{Width: 90})
	emitRun(t, runID, w, sinkFunc(func(e event.Event) error { p.Print(e); return nil }))
	p.Flush()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}

	events, err := runlog.ReadFile(w.Path())
	if err != nil {
		t.Fatal(err)
	}
	var replay bytes.Buffer
	r := NewPrinter(&replay, PrinterOptions{Width: 90})
	for _, e := range events {
		r.Print(e)
	}
	r.Flush()
	if live.String() != replay.String() {
		t.Errorf("replay differs from live run:\nlive:\n%s\nreplay:\n%s", live.String(), replay.String())
	}
}

func TestPrinter_DecidedAfterDeltas(t *testing.T) {
	useLang(t, i18n.EN)
	cases := []struct {
		name    string
		deltas  []any // streamed text, or a model.retried between attempts
		decided event.ModelDecidedData
		want    string // the model text as it must appear, once
	}{
		{"streamed in full", []any{"Hello ", "world."}, event.ModelDecidedData{Thought: "Hello world."}, "Hello world.\n"},
		{"not streamed", nil, event.ModelDecidedData{Thought: "Hello world."}, "Hello world.\n"},
		{"final answer streamed", []any{"Done: 42"}, event.ModelDecidedData{FinalAnswer: "Done: 42"}, "Done: 42\n"},
		{"tail of the stream dropped", []any{"Hello "}, event.ModelDecidedData{Thought: "Hello world."}, "Hello world.\n"},
		{"text ending in a newline", []any{"Line one\n"}, event.ModelDecidedData{Thought: "Line one\n"}, "Line one\n  "},
		{"attempt retried mid-stream", []any{"Hel", event.ModelRetriedData{Attempt: 1, Error: "connection reset"}, "Hello world."},
			event.ModelDecidedData{Thought: "Hello world."}, "connection reset\nHello world.\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			p := NewPrinter(&out, PrinterOptions{})
			emit := emitTo(t, p)
			emit(event.IterationStarted, 1, event.IterationStartedData{})
			for _, d := range c.deltas {
				if text, ok := d.(string); ok {
					emit(event.ModelDelta, 1, event.ModelDeltaData{Text: text})
				} else {
					emit(event.ModelRetried, 1, d)
				}
			}
			emit(event.ModelDecided, 1, c.decided)
			p.Flush()
			text := strings.TrimSpace(c.want)
			if n := strings.Count(out.String(), text); n != 1 {
				t.Errorf("%q appears %d times in:\n%s", text, n, out.String())
			}
			if !strings.Contains(out.String(), c.want) {
				t.Errorf("want %q followed by the usage line, got:\n%s", c.want, out.String())
			}
		})
	}
}

func TestPrinter_TruncatesByDisplayWidth(t *testing.T) {
	useLang(t, i18n.EN)
	var out bytes.Buffer
	p := NewPrinter(&out, PrinterOptions{Width: 40})
	emit := emitTo(t, p)
	args := `{"path":"笔记/项目计划/二零二六年第四季度总结.md"}`
	emit(event.ToolStarted, 1, event.ToolStartedData{CallID: "c1", Name: "read_file", Arguments: args, Attempt: 1})
	emit(event.ToolFinished, 1, event.ToolFinishedData{CallID: "c1", Name: "read_file", OK: true,
		Result: "# 二零二六年第四季度总结：收入增长百分之二十，成本下降", Size: 300, DurationMS: 2, Attempt: 1})
	p.Flush()
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("want 2 lines, got:\n%s", out.String())
	}
	for _, l := range lines {
		if w := width(l); w > 40 || w < 38 || !strings.HasSuffix(l, "…") {
			t.Errorf("line %q is %d columns; want it cut with … to fit 40", l, w)
		}
	}

	var verbose bytes.Buffer
	v := NewPrinter(&verbose, PrinterOptions{Width: 40, Verbose: true})
	v.Print(event.Event{Type: event.ToolStarted, Data: []byte(`{"call_id":"c1","name":"read_file","arguments":` + quote(args) + `,"attempt":1}`)})
	if !strings.Contains(verbose.String(), args) {
		t.Errorf("verbose output cut the arguments:\n%s", verbose.String())
	}
}

func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

func TestTruncateAndWidth(t *testing.T) {
	cases := []struct {
		in    string
		room  int
		want  string
		width int
	}{
		{"hello", 10, "hello", 5},
		{"hello world", 8, "hello w…", 8},
		{"读取文件内容", 12, "读取文件内容", 12},
		{"读取文件内容", 7, "读取文…", 7},
		{"读取文件内容", 8, "读取文…", 7}, // a wide rune never straddles the edge
		{"ａｂｃ", 4, "ａ…", 3},
		{"e\u0301te", 3, "e\u0301te", 3}, // a combining accent takes no column
		{"abc", 0, "", 0},
	}
	for _, c := range cases {
		got := truncate(c.in, c.room)
		if got != c.want || width(got) != c.width {
			t.Errorf("truncate(%q, %d) = %q (width %d), want %q (width %d)", c.in, c.room, got, width(got), c.want, c.width)
		}
	}
}

func TestHumanUnits(t *testing.T) {
	cases := []struct{ got, want string }{
		{humanSize(0), "0 B"},
		{humanSize(1023), "1023 B"},
		{humanSize(1229), "1.2 KB"},
		{humanSize(2048), "2 KB"},
		{humanSize(5 << 20), "5 MB"},
		{humanDuration(35), "35 ms"},
		{humanDuration(1450), "1.4 s"},
		{humanDuration(125_000), "2m 05s"},
		{humanDuration(3_780_000), "1h 03m"},
		{humanTokens(950), "950"},
		{humanTokens(12_345), "12.3k"},
		{humanTokens(128_000), "128k"},
		{humanTokens(1_500_000), "1.5M"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestPrinter_Chinese(t *testing.T) {
	useLang(t, i18n.ZH)
	out := printLive(t, PrinterOptions{Width: 60})
	for _, s := range []string{"第 1 轮", "上下文 1.2k/128k 令牌", "已完成 · 答案已验证", "迭代 3 轮", "已拒绝："} {
		if !strings.Contains(out, s) {
			t.Errorf("Chinese output lacks %q:\n%s", s, out)
		}
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "── ") && width(l) != 60 {
			t.Errorf("rule line %q is %d columns, want exactly 60", l, width(l))
		}
	}
}

func TestPrinter_FinishedStates(t *testing.T) {
	useLang(t, i18n.EN)
	cases := []struct {
		name string
		data event.RunFinishedData
		want []string
	}{
		{"unverified answer shown in full", event.RunFinishedData{Status: event.StatusFinished, Answer: "b.txt was written."},
			[]string{"── ⚠ finished · answer not verified", "answer:\nb.txt was written.\n"}},
		{"stopped with resume hint", event.RunFinishedData{Status: event.StatusStopped, Resume: "hermes resume 20261130-090000-aaaaaa"},
			[]string{"── ■ stopped by you", "to continue this run: hermes resume 20261130-090000-aaaaaa"}},
		{"failed with error", event.RunFinishedData{Status: event.StatusFailed, Error: "the model endpoint refused the key"},
			[]string{"── ✗ failed", "error: the model endpoint refused the key"}},
		{"guard", event.RunFinishedData{Status: event.StatusGuard}, []string{"── ■ stopped by a guard"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			p := NewPrinter(&out, PrinterOptions{})
			emit := emitTo(t, p)
			emit(event.RunFinished, 1, c.data)
			for _, w := range c.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("missing %q in:\n%s", w, out.String())
				}
			}
		})
	}
}

func TestPrinter_OtherEvents(t *testing.T) {
	useLang(t, i18n.EN)
	cases := []struct {
		typ     event.Type
		payload any
		want    string
	}{
		{event.RunPaused, event.RunPausedData{At: event.PausedAtDecided, PendingCalls: []event.DecidedCall{{Name: "write_file", Arguments: `{"path":"a.md"}`}}}, "⏸ paused\n  ⋯ write_file {\"path\":\"a.md\"}"},
		{event.RunResumed, event.RunResumedData{FromCheckpoint: true, Iteration: 4}, "▶ resumed from the checkpoint of iteration 4"},
		{event.RunResumed, event.RunResumedData{FromCheckpoint: true, Iteration: 4, Model: "qwen3", BaseURL: "http://b/v1", FromModel: "gpt-4o", FromBaseURL: "http://a/v1"},
			"▶ resumed from the checkpoint of iteration 4\n  model switched: gpt-4o @ http://a/v1 → qwen3 @ http://b/v1"},
		{event.InstructionInjected, event.InstructionInjectedData{Text: "write the summary in French"}, "✎ instruction added: write the summary in French"},
		{event.TaskEdited, event.TaskEditedData{OldTask: "a", NewTask: "Summarise c.txt"}, "✎ task edited: Summarise c.txt"},
		{event.ToolStarted, event.ToolStartedData{CallID: "c9", Name: "read_file", Arguments: `{"path":"a.txt"}`, Attempt: 2},
			`  ↻ read_file {"path":"a.txt"} · attempt 2`},
		{event.GuardTripped, event.GuardTrippedData{Guard: event.GuardRepeatedCall, Action: event.ActionStop, Message: "Same call a fourth time."},
			"■ Same call a fourth time. [guard repeated_call]"},
		{event.ApprovalRequested, map[string]string{"call_id": "c1", "tool": "write_file"}, `? approval requested {"call_id":"c1","tool":"write_file"}`},
		{event.MemoryWritten, event.MemoryWrittenData{Entries: []event.MemoryRef{{ID: 7, Kind: "preference", Text: "answers in Markdown tables"}}}, "✎ 1 long-term memories written\n  preference: answers in Markdown tables"},
		{event.MemoryRecalled, event.MemoryRecalledData{Entries: []event.MemoryRef{{ID: 7, Kind: "preference", Text: "answers in Markdown tables", Reason: "preference"},
			{ID: 8, Kind: "outcome", Text: "Task: Q3 report", Reason: "match", Terms: []string{"q3", "report"}, Score: 2.5},
			{ID: 9, Kind: "outcome", Text: "Task: Q3 sales", Reason: "match", Terms: []string{"q3", "sale"}, Score: 2.1, Relevance: 0.54}}},
			"⟲ 3 long-term memories recalled\n  preference (a preference): answers in Markdown tables\n  outcome (matched q3, report): Task: Q3 report\n  outcome (matched q3, sale, relevance 54%): Task: Q3 sales"},
		{event.SummaryUpdated, event.SummaryUpdatedData{TurnsFolded: 6, TokensBefore: 19000, TokensAfter: 4200, Entities: []string{"ACC-9981", "INV-2031"}, EntitiesAdded: []string{"INV-2031"}},
			"⇲ context compressed: 6 turns folded into the summary, 19k → 4.2k tokens\n  kept beside the summary: 2 values, 1 new: INV-2031"},
		{event.ContextPinned, event.ContextPinnedData{Fact: "the budget is 500 EUR"}, "📌 pinned the budget is 500 EUR"},
		{event.RouteDecided, event.RouteDecidedData{Route: event.RouteLoop, By: "rules", Reason: "the task names files"}, "↳ the task goes through the loop: the task names files"},
		{event.PlanCreated, event.PlanCreatedData{Steps: []event.PlanStep{{ID: 1, Description: "Read the notes", Status: event.StepPassed}, {ID: 2, Description: "Write SUMMARY.md", Status: event.StepPending}}}, "☰ plan of 2 steps\n  [x] 1. Read the notes\n  [ ] 2. Write SUMMARY.md"},
		{event.StepEvaluated, event.StepEvaluatedData{Step: 2, Passed: false, Reason: "SUMMARY.md lacks the dates"}, "  ✗ step 2: SUMMARY.md lacks the dates"},
		{event.CompletionChecked, event.CompletionCheckedData{Passed: true, StepsPassed: 2, StepsRequired: 2, Confidence: 0.9, Threshold: 0.8}, "◎ completion check: 2 of 2 required steps passed, confidence 90% (needs 80%)"},
		// A log of before steps_passed counted only required steps: three
		// steps passed, one of them optional.
		{event.CompletionChecked, event.CompletionCheckedData{Passed: true, StepsPassed: 3, StepsRequired: 2, Confidence: 0.9, Threshold: 0.8}, "◎ completion check: 2 of 2 required steps passed, confidence 90% (needs 80%)"},
		{event.CompletionChecked, event.CompletionCheckedData{StepsPassed: 2, StepsRequired: 3, Missing: []int{3}, Threshold: 0.8}, "◎ completion check: 2 of 3 required steps passed, confidence 0% (needs 80%)"},
		{event.CompletionChecked, event.CompletionCheckedData{Passed: true, Confidence: 0.9, Threshold: 0.8}, "◎ completion check: confidence 90% (needs 80%)"},
		{event.QuestionAsked, event.QuestionAskedData{Question: "Which order id should I use?"}, "? Which order id should I use?"},
		{event.QuestionAnswered, event.QuestionAnsweredData{By: "user", Answer: "ORD-7731"}, "  answered: ORD-7731"},
		{event.LimitNear, event.LimitNearData{Limit: event.GuardMaxIterations, Left: 2, Max: 25}, "⏳ 2 of 25 iterations left: the model was told to wrap up"},
		{event.Type("browser.opened"), map[string]string{"url": "about:blank"}, `· browser.opened {"url":"about:blank"}`},
	}
	for _, c := range cases {
		t.Run(string(c.typ), func(t *testing.T) {
			var out bytes.Buffer
			p := NewPrinter(&out, PrinterOptions{})
			emit := emitTo(t, p)
			emit(c.typ, 1, c.payload)
			if got := strings.TrimRight(out.String(), "\n"); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestColorFor(t *testing.T) {
	file, err := os.Create(filepath.Join(t.TempDir(), "out.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	cases := []struct {
		name string
		w    any
		env  map[string]string
		want bool
	}{
		{"buffer", &bytes.Buffer{}, nil, false},
		{"regular file", file, nil, false},
		{"FORCE_COLOR", &bytes.Buffer{}, map[string]string{"FORCE_COLOR": "1"}, true},
		{"CLICOLOR_FORCE", file, map[string]string{"CLICOLOR_FORCE": "1"}, true},
		{"FORCE_COLOR=0", &bytes.Buffer{}, map[string]string{"FORCE_COLOR": "0"}, false},
		{"NO_COLOR", file, map[string]string{"NO_COLOR": "1"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			getenv := func(k string) string { return c.env[k] }
			var got bool
			switch w := c.w.(type) {
			case *bytes.Buffer:
				got = ColorFor(w, getenv)
			case *os.File:
				got = ColorFor(w, getenv)
			}
			if got != c.want {
				t.Errorf("ColorFor = %v, want %v", got, c.want)
			}
		})
	}
}

func TestJSONPrinter_SameBytesAsLog(t *testing.T) {
	home := t.TempDir()
	runID := "20261130-090000-cccccc"
	w, err := runlog.Create(home, runID, time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	em := event.NewEmitter(runID, event.EmitterOptions{Sinks: []event.Sink{w, NewJSONPrinter(&out)}})
	for _, e := range []struct {
		typ     event.Type
		it      int
		payload any
	}{
		{event.RunStarted, 0, event.RunStartedData{Task: "compare <a> & <b>", Tools: []string{"read_file"}}},
		{event.ToolFinished, 1, event.ToolFinishedData{CallID: "c1", Name: "read_file", OK: true, Result: "<html>&amp;</html>"}},
	} {
		if _, err := em.Emit(e.typ, e.it, e.payload); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	logged, err := os.ReadFile(w.Path())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), logged) {
		t.Errorf("JSON output differs from the log:\n%s\nlog:\n%s", out.Bytes(), logged)
	}
	if n := bytes.Count(out.Bytes(), []byte("\n")); n != 2 {
		t.Errorf("want 2 lines, got %d", n)
	}
}

// The header says what a run does with long-term memory when it is not
// the default: off, read only, or as of a time (a fork's).
func TestPrinter_MemoryLine(t *testing.T) {
	asOf := time.Date(2026, 1, 10, 9, 0, 0, 0, time.Local)
	for _, c := range []struct {
		memory *event.MemoryUse
		want   string
	}{
		{nil, ""},
		{&event.MemoryUse{Mode: "on"}, ""},
		{&event.MemoryUse{Mode: "off"}, "memory  off for this run: nothing recalled, nothing kept"},
		{&event.MemoryUse{Mode: "read", AsOf: asOf}, "memory  recalled only, nothing kept; only memories written before 2026-01-10 09:00:00"},
	} {
		var out bytes.Buffer
		p := NewPrinter(&out, PrinterOptions{Width: 200})
		emit := emitTo(t, p)
		emit(event.RunStarted, 0, event.RunStartedData{Task: "t", Memory: c.memory})
		var line string
		for _, l := range strings.Split(out.String(), "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), "memory") {
				line = strings.Join(strings.Fields(l), " ")
			}
		}
		if want := strings.Join(strings.Fields(c.want), " "); line != want {
			t.Errorf("memory %+v: header line %q, want %q", c.memory, line, want)
		}
	}
}

// emitTo returns a function that emits an event of run "r" to p, failing
// the test when the emitter cannot.
func emitTo(t *testing.T, p *Printer) func(event.Type, int, any) {
	em := event.NewEmitter("r", event.EmitterOptions{Sinks: []event.Sink{sinkFunc(func(e event.Event) error { p.Print(e); return nil })}})
	return func(typ event.Type, iteration int, payload any) {
		t.Helper()
		if _, err := em.Emit(typ, iteration, payload); err != nil {
			t.Fatal(err)
		}
	}
}
