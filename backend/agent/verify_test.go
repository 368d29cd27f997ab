package agent_test

import (
	"testing"

	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
)

// TestLoop_AnswerAfterUnresolvedCallIsUnverified: a call that was denied,
// refused or failed, and whose tool never succeeded afterwards, leaves the
// answer unverified, however confidently the model claims success.
func TestLoop_AnswerAfterUnresolvedCallIsUnverified(t *testing.T) {
	write := func(id string) llmtest.Step { return writeCall(id, "out.txt") }
	cases := []struct {
		name         string
		unattended   bool
		steps        []llmtest.Step
		wantVerified bool
	}{
		{"a denied write", true, []llmtest.Step{write("w1"), {Content: "Done: wrote out.txt."}}, false},
		{"a refused write", false, []llmtest.Step{
			{ToolCalls: []llm.ToolCall{call("w1", "write_file", `{"content": "no path"}`)}},
			{ToolCalls: []llm.ToolCall{call("l1", "list_files", `{"path": "."}`)}},
			{Content: "Done: wrote out.txt."},
		}, false},
		{"a failed read, then other tools", false, []llmtest.Step{
			{ToolCalls: []llm.ToolCall{call("r1", "read_file", `{"path": "missing.txt"}`)}},
			{ToolCalls: []llm.ToolCall{call("l1", "list_files", `{"path": "."}`)}},
			{Content: "Done: it says hello."},
		}, false},
		{"a refused write done right afterwards", false, []llmtest.Step{
			{ToolCalls: []llm.ToolCall{call("w1", "write_file", `{"content": "no path"}`)}},
			write("w2"),
			{Content: "Done: wrote out.txt."},
		}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, llmtest.NewServer(t, c.steps...))
			h.setup.Policy = &askWrites{}
			if !c.unattended {
				h.setup.Policy = nil
			}
			h.setup.Unattended = c.unattended
			res, events := h.run("write out.txt")
			if res.Status != event.StatusFinished || res.Verified != c.wantVerified {
				t.Fatalf("status %s verified %v, want finished verified %v", res.Status, res.Verified, c.wantVerified)
			}
			if fin := finished(t, events); fin.Verified != c.wantVerified {
				t.Errorf("run.finished verified = %v", fin.Verified)
			}
			warned := false
			for _, g := range guards(t, events) {
				warned = warned || g.Guard == event.GuardUnverified
			}
			if warned == c.wantVerified {
				t.Errorf("unverified_answer guard tripped = %v, want %v", warned, !c.wantVerified)
			}
		})
	}
}

// TestPlan_AnswerAfterDeniedCallIsUnverified: under a plan, a step the
// evaluator passed and a confident model do not verify a write that was
// denied.
func TestPlan_AnswerAfterDeniedCallIsUnverified(t *testing.T) {
	s := newStaged(t, func(req llmtest.Request, n int) llmtest.Step {
		if n == 0 {
			return llmtest.Step{ToolCalls: []llm.ToolCall{metaCall("w1", "write_file", map[string]any{"path": "out.txt", "content": "hi"}, 1, "finished", "write out.txt", nil)}}
		}
		return llmtest.Step{Content: "Done: wrote out.txt."}
	}).on(stagePlan, always(`{"steps": [{"description": "Write out.txt", "tools": ["write_file"], "acceptance": "out.txt exists"}]}`)).
		on(stageEvaluate, always(verdict(true, "written"))).
		on(stageConfidence, confident(0.95))
	h := planHarness(t, s)
	h.setup.Policy = &askWrites{}
	h.setup.Unattended = true
	res, events := h.run("Write hi to out.txt")
	if res.Status != event.StatusFinished || res.Verified {
		t.Fatalf("result = %+v; want finished and unverified", res)
	}
	if fin := finished(t, events); fin.Verified {
		t.Errorf("run.finished = %+v", fin)
	}
}
