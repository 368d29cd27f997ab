package agent_test

import (
	"strings"
	"testing"

	"hermes/backend/event"
	"hermes/backend/i18n"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
)

// The completion check counts the required steps passed: an optional
// step passed too does not make "3 of 2".
func TestWording_CompletionCountsRequiredSteps(t *testing.T) {
	s := newStaged(t, func(req llmtest.Request, n int) llmtest.Step {
		switch n {
		case 0:
			return llmtest.Step{ToolCalls: []llm.ToolCall{metaCall("c1", "read_file", map[string]any{"path": "notes.txt"}, 1, "finished", "read the notes", nil)}}
		case 1:
			return llmtest.Step{ToolCalls: []llm.ToolCall{checked(metaCall("c2", "list_files", map[string]any{"path": "."}, 2, "finished", "see what else is there", nil), true, "read")}}
		case 2:
			return llmtest.Step{ToolCalls: []llm.ToolCall{checked(metaCall("c3", "write_file", map[string]any{"path": "out.txt", "content": "BUY MILK"}, 3, "finished", "write out.txt", nil), true, "listed")}}
		}
		return llmtest.Step{Content: "Wrote BUY MILK to out.txt."}
	}).on(stagePlan, always(`{"steps": [
		{"description": "Read notes.txt", "tools": ["read_file"], "acceptance": "its content is shown"},
		{"description": "List the folder", "tools": ["list_files"], "acceptance": "the files are listed", "required": false},
		{"description": "Write out.txt", "tools": ["write_file"], "acceptance": "out.txt holds BUY MILK"}]}`)).
		on(stageEvaluate, always(verdict(true, "shown"))).on(stageConfidence, confident(0.9))
	h := planHarness(t, s)
	h.write("notes.txt", "buy milk")
	res, events := h.run("Write the first line of notes.txt in upper case to out.txt")
	if res.Status != event.StatusFinished {
		t.Fatalf("result = %+v", res)
	}
	done := decode[event.CompletionCheckedData](t, ofType(events, event.CompletionChecked)[0])
	if !done.Passed || done.StepsPassed != 2 || done.StepsRequired != 2 {
		t.Fatalf("completion.checked = %+v; want 2 of 2 required steps passed", done)
	}
}

// A guard that sets an error in parentheses ends it once: the planner's
// unreadable reply is not told as "(… (…).)".
func TestWording_NoDoubledPunctuation(t *testing.T) {
	s := newStaged(t, func(req llmtest.Request, n int) llmtest.Step {
		return llmtest.Step{Content: "Nothing to do."}
	}).on(stagePlan, always("I would rather not plan.")).on(stageConfidence, confident(0.9))
	h := planHarness(t, s)
	_, events := h.run("Tidy the notes folder")
	var plan []event.GuardTrippedData
	for _, g := range guards(t, events) {
		if g.Guard == event.GuardPlan {
			plan = append(plan, g)
		}
	}
	if len(plan) != 1 {
		t.Fatalf("plan guards = %+v", plan)
	}
	for _, doubled := range []string{".)", ".).", "..", "。)"} {
		if strings.Contains(plan[0].Message, doubled) {
			t.Errorf("the guard says %q, with %q", plan[0].Message, doubled)
		}
	}
}

// In Chinese, what the person reads of routing and drift is Chinese (the
// model's own words quoted as it wrote them); what the model is told stays
// English.
func TestWording_ChineseForThePerson(t *testing.T) {
	was := i18n.Current()
	i18n.SetLang(i18n.ZH)
	t.Cleanup(func() { i18n.SetLang(was) })
	s := newStaged(t, func(req llmtest.Request, n int) llmtest.Step {
		switch n {
		case 0:
			return llmtest.Step{ToolCalls: []llm.ToolCall{metaCall("d1", "list_files", map[string]any{"path": "."}, 1, "continue", "browse for something interesting", nil)}}
		case 1:
			return llmtest.Step{ToolCalls: []llm.ToolCall{metaCall("c1", "read_file", map[string]any{"path": "notes.txt"}, 1, "finished", "read the notes", nil)}}
		}
		return llmtest.Step{Content: "买牛奶"}
	}).on(stageRoute, always(`{"route": "loop", "reason": "it needs the notes.", "calls": 3}`)).
		on(stagePlan, always(`{"steps": [{"description": "Read notes.txt", "tools": ["read_file"], "acceptance": "content shown"}]}`)).
		on(stageEvaluate, always(verdict(true, "shown"))).on(stageConfidence, confident(0.9))
	h := planHarness(t, s)
	h.setup.Route = true
	h.write("notes.txt", "buy milk")
	_, events := h.run("今天要买什么？")
	route := decode[event.RouteDecidedData](t, ofType(events, event.RouteDecided)[0])
	if route.By != "model" || route.Reason != "模型判断需要工具：it needs the notes" {
		t.Errorf("route.decided = %+v", route)
	}
	var drift string
	for _, g := range guards(t, events) {
		if g.Guard == event.GuardDrift {
			drift = g.Message
		}
	}
	if !strings.HasPrefix(drift, "该决策偏离了目标：它调用了 list_files") {
		t.Errorf("the drift guard says %q", drift)
	}
	if !contains(h.request(3), llm.RoleUser, "Your last decision drifted from the goal: it calls list_files") {
		t.Error("the model was not told of its drift in English")
	}
}
