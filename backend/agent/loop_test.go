package agent_test

import (
	"reflect"
	"strings"
	"testing"

	"hermes/backend/agent"
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runlog"
)

func TestLoop_ReadsFileAndAnswers(t *testing.T) {
	srv := llmtest.NewServer(t,
		llmtest.Step{Content: "Let me read it.", ToolCalls: []llm.ToolCall{call("call_a", "read_file", map[string]any{"path": "notes.txt"})}, Chunks: 5},
		llmtest.Step{Content: "The note says: buy milk.", Chunks: 4},
	)
	h := newHarness(t, srv)
	h.write("notes.txt", "buy milk\n")
	sub := h.setup.Bus.Subscribe(1024, nil)

	res, events := h.run("What does notes.txt say?")

	if res.Status != event.StatusFinished || !res.Verified || res.Answer != "The note says: buy milk." {
		t.Fatalf("result = %+v", res)
	}
	var types []event.Type
	for _, e := range events {
		if e.Type != event.ModelDelta {
			types = append(types, e.Type)
		}
	}
	want := []event.Type{
		event.RunStarted, event.CheckpointSaved,
		event.IterationStarted, event.ContextBuilt, event.ModelDecided, event.ToolStarted, event.ToolFinished, event.CheckpointSaved,
		event.IterationStarted, event.ContextBuilt, event.ModelDecided, event.CheckpointSaved,
		event.RunFinished,
	}
	if !reflect.DeepEqual(types, want) {
		t.Fatalf("event types\n got %v\nwant %v", types, want)
	}
	// The call's id travels from the model's call to the tool result it reads next.
	second := h.request(1)
	last := second[len(second)-1]
	if last.Role != llm.RoleTool || last.ToolCallID != "call_a" || !strings.Contains(last.Content, "buy milk") {
		t.Fatalf("tool result sent back as %+v", last)
	}
	if prev := second[len(second)-2]; len(prev.ToolCalls) != 1 || prev.ToolCalls[0].ID != "call_a" {
		t.Fatalf("assistant turn sent back as %+v", prev)
	}
	// Streamed text reaches the events, and the viewers saw exactly the log.
	var streamed strings.Builder
	for _, e := range ofType(events, event.ModelDelta) {
		streamed.WriteString(decode[event.ModelDeltaData](t, e).Text)
	}
	if streamed.String() != "Let me read it.The note says: buy milk." {
		t.Errorf("streamed text = %q", streamed.String())
	}
	h.setup.Bus.Unsubscribe(sub)
	var live []event.Event
	for e := range sub.C {
		live = append(live, e)
	}
	if !reflect.DeepEqual(live, events) {
		t.Errorf("the bus delivered %d events that differ from the log's %d", len(live), len(events))
	}
	// The context event counts every layer.
	ctx := decode[event.ContextBuiltData](t, ofType(events, event.ContextBuilt)[1])
	if ctx.Layers.System == 0 || ctx.Layers.TaskAnchor == 0 || ctx.Layers.ToolSchemas == 0 || ctx.Layers.ToolResults == 0 || ctx.Full || len(ctx.Messages) != 2 {
		t.Errorf("second context.built = %+v", ctx)
	}
	if s := runlog.Summarize(events); s.Status != event.StatusFinished || s.Iterations != 2 || s.Task != "What does notes.txt say?" {
		t.Errorf("summary = %+v", s)
	}
}

func TestLoop_MalformedArgumentsAreRepaired(t *testing.T) {
	srv := llmtest.NewServer(t,
		llmtest.Step{ToolCalls: []llm.ToolCall{call("c1", "read_file", "```json\n{'path': 'a.txt',}\n```")}},
		llmtest.Step{Content: "done"},
	)
	h := newHarness(t, srv)
	h.write("a.txt", "alpha")
	res, events := h.run("read a.txt")
	if res.Status != event.StatusFinished {
		t.Fatalf("status %s: %s", res.Status, res.Error)
	}
	d := decode[event.ModelDecidedData](t, ofType(events, event.ModelDecided)[0])
	if !d.ToolCalls[0].Repaired || !d.ToolCalls[0].Valid {
		t.Errorf("decided call = %+v, want valid and repaired", d.ToolCalls[0])
	}
	if r := toolResults(t, events); !r[0].OK || r[0].Result != "alpha" {
		t.Errorf("tool result = %+v", r[0])
	}
}

func TestLoop_InvalidCallsGoBackToTheModel(t *testing.T) {
	srv := llmtest.NewServer(t,
		llmtest.Step{ToolCalls: []llm.ToolCall{call("c1", "read_file", `{"offset_line": 2}`)}},
		llmtest.Step{ToolCalls: []llm.ToolCall{call("c2", "delete_everything", `{}`)}},
		llmtest.Step{Content: "I cannot."},
	)
	h := newHarness(t, srv)
	res, events := h.run("misbehave")
	if res.Status != event.StatusFinished {
		t.Fatalf("status %s: %s", res.Status, res.Error)
	}
	missing := h.request(1)
	if last := missing[len(missing)-1]; last.Role != llm.RoleTool || !strings.Contains(last.Content, "path") || !strings.Contains(last.Content, `"properties"`) {
		t.Errorf("invalid arguments came back as %q; want the field and the schema", last.Content)
	}
	unknown := h.request(2)
	if last := unknown[len(unknown)-1]; !strings.Contains(last.Content, "delete_everything") || !strings.Contains(last.Content, "list_files") {
		t.Errorf("unknown tool came back as %q; want the list of tools", last.Content)
	}
	for _, r := range toolResults(t, events) {
		if r.OK {
			t.Errorf("invalid call reported as ok: %+v", r)
		}
	}
}

func TestLoop_ModelRetriesAreEventsNotMessages(t *testing.T) {
	srv := llmtest.NewServer(t,
		llmtest.Step{Status: 502},
		llmtest.Step{Status: 429, RetryAfter: "0"},
		llmtest.Step{Content: "hello"},
	)
	h := newHarness(t, srv)
	res, events := h.run("say hello")
	if res.Status != event.StatusFinished || res.Answer != "hello" {
		t.Fatalf("result = %+v", res)
	}
	if n := len(ofType(events, event.ModelRetried)); n != 2 {
		t.Errorf("%d model.retried events, want 2", n)
	}
	d := decode[event.ModelDecidedData](t, ofType(events, event.ModelDecided)[0])
	if d.Attempts != 3 {
		t.Errorf("attempts = %d, want 3", d.Attempts)
	}
	reqs := srv.Requests()
	if !reflect.DeepEqual(reqs[0].Messages, reqs[2].Messages) {
		t.Error("the retried request differs from the first: the retry reached the model")
	}
}

func TestLoop_ModelFailureEndsTheRun(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Step{Status: 401})
	h := newHarness(t, srv)
	res, events := h.run("anything")
	if res.Status != event.StatusFailed || res.Error == "" {
		t.Fatalf("result = %+v", res)
	}
	if fin := finished(t, events); fin.Resume == "" {
		t.Error("a failed run should say how to resume it")
	}
}

func TestLoop_LongOutputIsDistilled(t *testing.T) {
	srv := llmtest.NewServer(t,
		llmtest.Step{ToolCalls: []llm.ToolCall{call("big", "read_file", map[string]any{"path": "big.txt"})}},
		llmtest.Step{Content: "read it"},
	)
	h := newHarness(t, srv)
	h.setup.Limits.ObservationLimit = 300
	var b strings.Builder
	for i := range 200 {
		b.WriteString(strings.Repeat(string(rune('a'+i%26)), 19) + "\n")
	}
	h.write("big.txt", b.String())
	_, events := h.run("read big.txt")
	r := toolResults(t, events)[0]
	if r.Artifact == "" || !strings.Contains(r.Result, "characters cut") || len([]rune(r.Result)) > 600 {
		t.Fatalf("result not distilled: artifact %q, %d runes", r.Artifact, len([]rune(r.Result)))
	}
	full, size, err := runlog.ReadArtifact(h.home, r.Artifact, 0, 1<<20)
	if err != nil || !strings.Contains(string(full), b.String()[:1000]) || size < len(b.String()) {
		t.Fatalf("artifact holds %d of %d bytes (err %v)", size, len(b.String()), err)
	}
	sent := h.request(1)
	if !strings.Contains(sent[len(sent)-1].Content, "characters cut") {
		t.Error("the model was sent the whole output")
	}
}

// onlyList offers one tool of the registry and says what the rest would cost.
type onlyList struct {
	defs   []llm.ToolDef
	closed bool
}

func (s *onlyList) Defs() []llm.ToolDef { return s.defs }
func (s *onlyList) SavedTokens() int    { return 123 }
func (s *onlyList) Close()              { s.closed = true }

func TestLoop_SelectedToolsOnly(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Step{Content: "done"})
	h := newHarness(t, srv)
	sel := &onlyList{}
	for _, d := range h.setup.Tools.Defs() {
		if d.Name == "list_files" {
			sel.defs = append(sel.defs, d)
		}
	}
	var gotTask string
	h.setup.Select = func(_, task string) agent.ToolSelection {
		gotTask = task
		return sel
	}
	_, events := h.run("list the files")
	if gotTask != "list the files" || !sel.closed {
		t.Errorf("selection asked for %q, closed %v", gotTask, sel.closed)
	}
	if tools := srv.Requests()[0].Tools; len(tools) != 1 || tools[0].Name != "list_files" {
		t.Errorf("the model was offered %+v", tools)
	}
	built := decode[event.ContextBuiltData](t, ofType(events, event.ContextBuilt)[0])
	if built.SchemasSaved != 123 || len(built.ToolNames) != 1 {
		t.Errorf("context.built = saved %d, tools %v", built.SchemasSaved, built.ToolNames)
	}
}
