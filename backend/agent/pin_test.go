package agent_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"hermes/backend/agent"
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/toolbox"
)

func TestContext_PinnedNeverFolded(t *testing.T) {
	script := &longScript{pages: 14}
	h := longHarness(t, script)
	r, err := agent.NewRun(h.setup, agent.Task{Text: longTask, Workspace: h.ws})
	if err != nil {
		t.Fatal(err)
	}
	fact := "The client is ACME-77; never mail them directly."
	r.Controls().Send(agent.Control{Kind: agent.ControlPin, Text: fact})
	sub := h.setup.Bus.Subscribe(4096, nil)
	done := make(chan struct{})
	go func() {
		defer close(done)
		pinned := false
		for e := range sub.C {
			if e.Type == event.CheckpointSaved && !pinned {
				if d, _ := event.Decode[event.CheckpointSavedData](e); d.Messages >= 2 {
					pinned = true
					first, missing := 1, 999
					r.Controls().Send(agent.Control{Kind: agent.ControlPin, Message: &first})
					r.Controls().Send(agent.Control{Kind: agent.ControlPin, Message: &missing})
				}
			}
		}
	}()
	res, events := h.execute(r, t.Context())
	h.setup.Bus.Unsubscribe(sub)
	<-done
	if res.Status != event.StatusFinished {
		t.Fatalf("result = %+v", res)
	}

	pins := ofType(events, event.ContextPinned)
	if len(pins) != 2 {
		t.Fatalf("%d context.pinned events, want 2", len(pins))
	}
	if p := decode[event.ContextPinnedData](t, pins[0]); p.Fact != fact {
		t.Errorf("first pin = %+v", p)
	}
	if p := decode[event.ContextPinnedData](t, pins[1]); p.Message == nil || *p.Message != 1 || p.Role != llm.RoleTool || !strings.Contains(p.Preview, "INV-2024-0042") {
		t.Errorf("second pin = %+v", p)
	}
	var pinGuard bool
	for _, g := range guards(t, events) {
		pinGuard = pinGuard || g.Guard == event.GuardPin && strings.Contains(g.Message, "no message 999")
	}
	if !pinGuard {
		t.Error("pinning a message that does not exist gave no warning")
	}

	if len(ofType(events, event.SummaryUpdated)) == 0 {
		t.Fatal("the run never compressed")
	}
	for _, req := range h.server.Requests() {
		if len(req.Tools) == 0 && strings.Contains(joined(req.Messages), "Invoice INV-2024-0042 was approved") {
			t.Fatal("the pinned message was given to the summariser")
		}
	}
	reqs := loopRequests(h.server)
	for i, req := range reqs {
		if !strings.Contains(req.Messages[1].Content, "Pinned facts:\n- "+fact) {
			t.Fatalf("request %d lacks the pinned fact in its anchor", i)
		}
	}
	last := reqs[len(reqs)-1].Messages
	if !strings.Contains(last[1].Content, "Pinned message 1 (result of read_file call call_1):\nPage I of the audit\nInvoice INV-2024-0042 was approved.") {
		t.Errorf("the folded pinned message is not whole in the anchor: %.300q", last[1].Content)
	}
}

func TestContext_PreviewIsWhatTheNextCompressionFolds(t *testing.T) {
	script := &longScript{pages: 14, fail: func(int) bool { return true }}
	h := longHarness(t, script)
	r, err := agent.NewRun(h.setup, agent.Task{Text: longTask, Workspace: h.ws})
	if err != nil {
		t.Fatal(err)
	}
	sub := h.setup.Bus.Subscribe(4096, nil)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for e := range sub.C {
			// Read while the loop runs: the preview is safe from any goroutine.
			if p := r.ContextPreview(); p.Window != window {
				t.Errorf("live preview window = %d", p.Window)
			}
			if e.Type == event.GuardTripped {
				r.Controls().Stop()
			}
		}
	}()
	res, _ := h.execute(r, t.Context())
	h.setup.Bus.Unsubscribe(sub)
	<-done
	if res.Status != event.StatusStopped {
		t.Fatalf("first leg = %+v", res)
	}

	preview, err := agent.PreviewCheckpoint(h.setup, res.RunID)
	if err != nil {
		t.Fatal(err)
	}
	if !preview.Due || preview.Threshold != threshold || len(preview.Turns) == 0 || preview.Turns[0].Index != 0 {
		t.Fatalf("preview of the stopped run = %+v", preview)
	}
	script.mu.Lock()
	script.fail = nil
	script.mu.Unlock()
	resumed, err := agent.ResumeRun(h.setup, res.RunID)
	if err != nil {
		t.Fatal(err)
	}
	res, events := h.execute(resumed, t.Context())
	if res.Status != event.StatusFinished {
		t.Fatalf("resumed run = %+v", res)
	}
	s := decode[event.SummaryUpdatedData](t, ofType(events, event.SummaryUpdated)[0])
	lastPreviewed := preview.Turns[len(preview.Turns)-1].Index
	if s.From != preview.Turns[0].Index || s.To != lastPreviewed+1 {
		t.Errorf("the preview listed messages %d..%d, the compression folded %d..%d", preview.Turns[0].Index, lastPreviewed, s.From, s.To-1)
	}
}

var cutNote = regexp.MustCompile(`call read_artifact with ref "([^"]+)", offset (\d+)`)

func TestReadArtifact_ReadsWhatWasCut(t *testing.T) {
	var ref, offset string
	srv := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		last := req.Messages[len(req.Messages)-1]
		switch last.ToolCallID {
		case "c1":
			m := cutNote.FindStringSubmatch(last.Content)
			if m == nil {
				return llmtest.Step{Content: "no note"}
			}
			ref, offset = m[1], m[2]
			n, _ := strconv.Atoi(offset)
			return llmtest.Step{ToolCalls: []llm.ToolCall{call("c2", "read_artifact", map[string]any{"ref": ref, "offset": n, "limit": 600})}}
		case "c2":
			return llmtest.Step{Content: "done"}
		}
		return llmtest.Step{ToolCalls: []llm.ToolCall{call("c1", "read_file", map[string]any{"path": "big.txt"})}}
	})
	h := newHarness(t, srv, toolbox.ReadArtifactTool())
	h.setup.Limits.ObservationLimit = 600
	h.write("big.txt", strings.Repeat("a", 500)+"THE-MIDDLE-42"+strings.Repeat("z", 1500))

	res, events := h.run("What is in the middle of big.txt?")
	if res.Status != event.StatusFinished || ref == "" || offset != "400" {
		t.Fatalf("result %+v; the note named ref %q offset %q", res, ref, offset)
	}
	results := toolResults(t, events)
	got := results[len(results)-1]
	if !got.OK || !strings.HasPrefix(got.Result, strings.Repeat("a", 100)+"THE-MIDDLE-42") ||
		!strings.Contains(got.Result, "[characters 400 to 1000 of 2013; to read on, call read_artifact with offset 1000]") {
		t.Errorf("read_artifact gave %+v", got)
	}
}

func TestReadArtifact_Errors(t *testing.T) {
	srv := llmtest.NewServer(t,
		llmtest.Step{ToolCalls: []llm.ToolCall{call("c1", "read_artifact", map[string]any{"ref": "artifacts/nope/c9"})}},
		llmtest.Step{ToolCalls: []llm.ToolCall{call("c2", "read_artifact", map[string]any{"ref": "../hermes.db"})}},
		llmtest.Step{Content: "gave up"},
		llmtest.Step{Content: "gave up, checked"}, // an answer after a failed call gets a second look
	)
	h := newHarness(t, srv, toolbox.ReadArtifactTool())
	_, events := h.run("read an artifact")
	results := toolResults(t, events)
	if len(results) != 2 || !strings.Contains(results[0].Error, "there is no artifact artifacts/nope/c9") ||
		!strings.Contains(results[1].Error, "is not an artifact ref") {
		t.Errorf("errors for the model = %+v", results)
	}
}
