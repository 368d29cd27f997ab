package agent_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
)

// wire is a request's JSON as the model receives it, in its order: the
// tools, then the messages one by one.
func wire(t *testing.T, req llmtest.Request) (tools []byte, msgs [][]byte) {
	t.Helper()
	tools, err := json.Marshal(req.Tools)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range req.Messages {
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, b)
	}
	return tools, msgs
}

// Providers cache a prompt's longest prefix seen before, so the stable
// parts come first and stay byte for byte the same from one request to
// the next: the tools (with _meta) and the system prompt in every turn,
// the task message until a step changes status, and the turns sent
// before. Each turn only adds to the end. The stages' calls open with
// their fixed prompt and the task, in that order, every time.
func TestPlan_ConsecutiveRequestsShareTheirPrefix(t *testing.T) {
	s := newStaged(t, func(req llmtest.Request, n int) llmtest.Step {
		switch n {
		case 0:
			return llmtest.Step{ToolCalls: []llm.ToolCall{metaCall("c1", "list_files", map[string]any{"path": "."}, 1, "continue", "see the notes", nil)}}
		case 1:
			return llmtest.Step{ToolCalls: []llm.ToolCall{metaCall("c2", "read_file", map[string]any{"path": "notes.txt"}, 1, "finished", "read the notes", nil)}}
		case 2:
			return llmtest.Step{ToolCalls: []llm.ToolCall{checked(metaCall("c3", "write_file", map[string]any{"path": "out.txt", "content": "BUY MILK"}, 2, "finished", "write the first line to out.txt", nil), true, "buy milk")}}
		}
		return llmtest.Step{Content: "Wrote BUY MILK to out.txt."}
	}).on(stagePlan, always(plan2)).
		on(stageEvaluate, always(verdict(true, "out.txt holds BUY MILK"))).
		on(stageConfidence, confident(0.9))
	h := planHarness(t, s)
	h.write("notes.txt", "buy milk\n")
	res, events := h.run("Read notes.txt and write its first line in upper case to out.txt")
	if res.Status != event.StatusFinished || res.Totals.Iterations != 4 {
		t.Fatalf("result = %+v", res)
	}

	var turns, stages []llmtest.Request
	for _, req := range h.server.Requests() {
		if stageOf(req.Messages) == stageTurn {
			turns = append(turns, req)
		} else {
			stages = append(stages, req)
		}
	}
	if len(turns) != 4 {
		t.Fatalf("%d turns, want 4", len(turns))
	}
	sameAnchor := 0
	for i := 1; i < len(turns); i++ {
		prevTools, prev := wire(t, turns[i-1])
		tools, cur := wire(t, turns[i])
		if !bytes.Equal(prevTools, tools) {
			t.Errorf("turn %d: the tools changed:\n%s\n%s", i+1, prevTools, tools)
		}
		if !bytes.Equal(prev[0], cur[0]) {
			t.Errorf("turn %d: the system prompt changed", i+1)
		}
		// The turns sent before come again unchanged, right after the
		// task message, and the new ones follow them.
		if len(cur) <= len(prev) {
			t.Fatalf("turn %d has %d messages, the one before %d", i+1, len(cur), len(prev))
		}
		for j := 2; j < len(prev); j++ {
			if !bytes.Equal(prev[j], cur[j]) {
				t.Errorf("turn %d: message %d changed:\n%s\n%s", i+1, j, prev[j], cur[j])
			}
		}
		if bytes.Equal(prev[1], cur[1]) {
			sameAnchor++
		}
	}
	// Step 1 took two turns: the second was sent with the same task
	// message, so its whole prompt was the first's plus the new turns.
	if sameAnchor == 0 {
		t.Error("the task message changed with every turn")
	}
	if a, b := turns[0].Messages[1].Content, turns[1].Messages[1].Content; a != b {
		t.Errorf("the task message changed while step 1 was still current:\n%s\n%s", a, b)
	}

	// The stages' calls: plan, then the last step's check with the rating.
	if len(stages) != 2 {
		t.Fatalf("%d stage calls, want 2", len(stages))
	}
	task := "Task:\nRead notes.txt and write its first line in upper case to out.txt"
	for _, req := range stages {
		if req.Messages[0].Role != llm.RoleSystem || !strings.HasPrefix(req.Messages[1].Content, task) {
			t.Errorf("a %s call does not open with its prompt and the task:\n%s", stageOf(req.Messages), req.Messages[1].Content)
		}
	}
	if n := len(ofType(events, event.StepEvaluated)); n != 2 {
		t.Errorf("%d step checks, want 2", n)
	}
}
