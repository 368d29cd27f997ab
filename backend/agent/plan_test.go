package agent_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"hermes/backend/agent"
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
)

func TestPlan_StepsTickAndTheAnswerIsChecked(t *testing.T) {
	s := newStaged(t, func(req llmtest.Request, n int) llmtest.Step {
		switch n {
		case 0:
			return llmtest.Step{ToolCalls: []llm.ToolCall{metaCall("c1", "read_file", map[string]any{"path": "notes.txt"}, 1, "finished", "read the notes the task names", map[string]string{"path": "user"})}}
		case 1:
			// The verdict on step 1 comes with the call for step 2.
			return llmtest.Step{ToolCalls: []llm.ToolCall{checked(metaCall("c2", "write_file", map[string]any{"path": "out.txt", "content": "BUY MILK"}, 2, "finished", "write the first line to out.txt", nil), true, "notes.txt says buy milk")}}
		}
		return llmtest.Step{Content: "Wrote BUY MILK to out.txt."}
	}).on(stagePlan, always(plan2)).
		on(stageEvaluate, func(req llmtest.Request, n int) string { return verdict(true, "the result shows it") }).
		on(stageConfidence, confident(0.93))
	h := planHarness(t, s)
	rec := &temps{Model: h.setup.Model}
	h.setup.Model = rec
	h.setup.Temperatures = &agent.Temperatures{Route: 0, Plan: 0.2, Decide: 0.3, Evaluate: 0, Answer: 0.7}
	h.write("notes.txt", "buy milk\n")

	res, events := h.run("Read notes.txt and write its first line in upper case to out.txt")

	if res.Status != event.StatusFinished || !res.Verified || res.BestEffort || res.Answer != "Wrote BUY MILK to out.txt." {
		t.Fatalf("result = %+v", res)
	}
	if res.Totals.Iterations != 3 || res.Totals.StageCalls != 2 {
		t.Errorf("iterations %d, stage calls %d; want 3 and 2 (the plan; step 2's check with the rating)", res.Totals.Iterations, res.Totals.StageCalls)
	}
	if b, _ := os.ReadFile(filepath.Join(h.ws, "out.txt")); string(b) != "BUY MILK" {
		t.Errorf("out.txt = %q", b)
	}
	created := decode[event.PlanCreatedData](t, ofType(events, event.PlanCreated)[0])
	if len(created.Steps) != 2 || created.Steps[1].Tools[0] != "write_file" || !created.Steps[0].Required || created.Attempts != 1 {
		t.Errorf("plan.created = %+v", created)
	}
	var checkedSteps []int
	for i, e := range ofType(events, event.StepEvaluated) {
		d := decode[event.StepEvaluatedData](t, e)
		if !d.Passed || len(d.Calls) != 1 || d.InDecision != (i == 0) {
			t.Errorf("step.evaluated = %+v", d)
		}
		checkedSteps = append(checkedSteps, d.Step)
	}
	if !reflect.DeepEqual(checkedSteps, []int{1, 2}) {
		t.Errorf("steps checked %v, want [1 2]", checkedSteps)
	}
	if d := decode[event.StepEvaluatedData](t, ofType(events, event.StepEvaluated)[0]); d.Reason != "notes.txt says buy milk" || d.Usage.TotalTokens != 0 {
		t.Errorf("the verdict given in the decision = %+v", d)
	}
	done := decode[event.CompletionCheckedData](t, ofType(events, event.CompletionChecked)[0])
	if !done.Passed || done.Confidence != 0.93 || done.Threshold != agent.DefaultConfidence || done.StepsPassed != 2 || done.Usage.TotalTokens == 0 {
		t.Errorf("completion.checked = %+v", done)
	}
	if fin := finished(t, events); fin.Confidence != 0.93 || fin.ConfidenceReason == "" {
		t.Errorf("run.finished = %+v", fin)
	}
	d := decode[event.ModelDecidedData](t, ofType(events, event.ModelDecided)[0])
	if d.Stage != event.StageDeciding || d.Step != 1 || d.StepStatus != "finished" || d.ServesGoal == "" || d.Drift != "" ||
		d.ToolCalls[0].Provenance["path"] != event.FromUser || !d.ToolCalls[0].Valid {
		t.Errorf("model.decided = %+v", d)
	}
	if d := decode[event.ModelDecidedData](t, ofType(events, event.ModelDecided)[1]); d.Stage != event.StageDeciding || d.Step != 2 || d.Drift != "" || d.Spent != "decide" {
		t.Errorf("second model.decided = %+v", d)
	}
	if d := decode[event.ModelDecidedData](t, ofType(events, event.ModelDecided)[2]); d.Spent != "answer" || d.FinalAnswer == "" {
		t.Errorf("the answer's model.decided = %+v", d)
	}

	// The model is offered _meta, sees the plan tick in its anchor (a
	// finished step asks for its check), and each stage has its
	// temperature: the answer's turn, after every other step passed, the
	// answer's.
	var turns []llmtest.Request
	for _, req := range h.server.Requests() {
		if stageOf(req.Messages) == stageTurn {
			turns = append(turns, req)
		}
	}
	if !strings.Contains(string(turns[0].Tools[0].Parameters), "_meta") {
		t.Errorf("tool schema lacks _meta: %s", turns[0].Tools[0].Parameters)
	}
	if a := turns[1].Messages[1].Content; !strings.Contains(a, `1. [finished: check it in the next call's _meta`) || !strings.Contains(a, "2. [current] Write") {
		t.Errorf("second turn's anchor:\n%s", a)
	}
	if a := turns[2].Messages[1].Content; !strings.Contains(a, "1. [passed] Read notes.txt") || !strings.Contains(a, "Every other step has passed") {
		t.Errorf("third turn's anchor:\n%s", a)
	}
	want := map[string][]float32{stagePlan: {0.2}, stageTurn: {0.3, 0.3, 0.7}, stageConfidence: {0}}
	if !reflect.DeepEqual(rec.got, want) {
		t.Errorf("temperatures = %v, want %v", rec.got, want)
	}
	// The answer's turn is the answer stage's; no request of its own went
	// to evaluating a step.
	if st := res.Totals.StageTokens; st["decide"] == 0 || st["answer"] == 0 || st["plan"] == 0 || st["evaluate"] == 0 || len(st) != 4 {
		t.Errorf("stage tokens = %v", st)
	}
	sum := 0
	for _, n := range res.Totals.StageTokens {
		sum += n
	}
	if sum != res.Totals.TotalTokens {
		t.Errorf("stage tokens add up to %d, total %d", sum, res.Totals.TotalTokens)
	}
}

// A model that leaves the verdict out of its next decision is checked by
// the evaluator then, and right after each finished step from then on.
func TestPlan_ACheckLeftOutIsTheEvaluators(t *testing.T) {
	s := newStaged(t, func(req llmtest.Request, n int) llmtest.Step {
		switch n {
		case 0:
			return llmtest.Step{ToolCalls: []llm.ToolCall{metaCall("c1", "read_file", map[string]any{"path": "notes.txt"}, 1, "finished", "read the notes", nil)}}
		case 1:
			return llmtest.Step{ToolCalls: []llm.ToolCall{metaCall("c2", "write_file", map[string]any{"path": "out.txt", "content": "BUY MILK"}, 2, "finished", "write the first line to out.txt", nil)}}
		}
		return llmtest.Step{Content: "Wrote BUY MILK to out.txt."}
	}).on(stagePlan, always(plan2)).
		on(stageEvaluate, always(verdict(true, "the result shows it"))).
		on(stageConfidence, confident(0.9))
	h := planHarness(t, s)
	h.write("notes.txt", "buy milk\n")
	res, events := h.run("Read notes.txt and write its first line in upper case to out.txt")
	if res.Status != event.StatusFinished || res.Totals.Iterations != 3 || res.Totals.StageCalls != 4 {
		t.Fatalf("result = %+v; want 3 iterations and 4 stage calls (plan, two checks, confidence)", res)
	}
	var turns []llmtest.Request
	for _, req := range h.server.Requests() {
		if stageOf(req.Messages) == stageTurn {
			turns = append(turns, req)
		}
	}
	// Step 2 was checked right after its call: the answer's turn sees it passed.
	if a := turns[2].Messages[1].Content; !strings.Contains(a, "2. [passed]") || !strings.Contains(a, "Every step has passed") {
		t.Errorf("third turn's anchor:\n%s", a)
	}
	for _, e := range ofType(events, event.StepEvaluated) {
		if d := decode[event.StepEvaluatedData](t, e); !d.Passed || d.InDecision || d.Usage.TotalTokens == 0 {
			t.Errorf("step.evaluated = %+v", d)
		}
	}
	if s.count(stageEvaluate) != 2 || s.count(stageConfidence) != 1 {
		t.Errorf("%d evaluations, %d ratings; want 2 and 1", s.count(stageEvaluate), s.count(stageConfidence))
	}
}

// A failed verdict the model gives itself keeps the step current, with the
// reason in the anchor, and adds no hint: the model said it.
func TestPlan_AFailedCheckInTheDecisionKeepsTheStep(t *testing.T) {
	s := newStaged(t, func(req llmtest.Request, n int) llmtest.Step {
		switch n {
		case 0:
			return llmtest.Step{ToolCalls: []llm.ToolCall{metaCall("c1", "write_file", map[string]any{"path": "out.txt", "content": "buy milk"}, 1, "finished", "write the first line to out.txt", nil)}}
		case 1:
			return llmtest.Step{ToolCalls: []llm.ToolCall{checked(metaCall("c2", "read_file", map[string]any{"path": "out.txt"}, 1, "continue", "see what out.txt holds", nil), false, "out.txt is not in upper case")}}
		case 2:
			return llmtest.Step{ToolCalls: []llm.ToolCall{metaCall("c3", "write_file", map[string]any{"path": "out.txt", "content": "BUY MILK"}, 1, "finished", "write the first line in upper case", nil)}}
		}
		return llmtest.Step{Content: "Wrote BUY MILK to out.txt."}
	}).on(stagePlan, always(`{"steps": [{"description": "Write the first line in upper case to out.txt", "tools": ["write_file", "read_file"], "acceptance": "out.txt holds BUY MILK"}]}`)).
		on(stageEvaluate, always(verdict(true, "out.txt holds BUY MILK"))).
		on(stageConfidence, confident(0.9))
	h := planHarness(t, s)
	res, events := h.run("Write BUY MILK in upper case to out.txt")
	if res.Status != event.StatusFinished {
		t.Fatalf("result = %+v", res)
	}
	evals := ofType(events, event.StepEvaluated)
	if d := decode[event.StepEvaluatedData](t, evals[0]); d.Passed || !d.InDecision || d.Step != 1 || d.NextStep != 1 {
		t.Errorf("first step.evaluated = %+v", d)
	}
	turns := 0
	for _, req := range h.server.Requests() {
		if stageOf(req.Messages) != stageTurn {
			continue
		}
		if turns++; turns == 3 {
			if !strings.Contains(req.Messages[1].Content, "its last check failed: out.txt is not in upper case") {
				t.Errorf("anchor:\n%s", req.Messages[1].Content)
			}
			if contains(req.Messages, llm.RoleUser, "did not pass") {
				t.Error("a hint repeats the model's own verdict")
			}
		}
	}
}

func TestPlan_FailedCheckGoesBackWithItsReason(t *testing.T) {
	s := newStaged(t, func(req llmtest.Request, n int) llmtest.Step {
		if n < 2 {
			content := []string{"buy milk", "BUY MILK"}[n]
			return llmtest.Step{ToolCalls: []llm.ToolCall{metaCall("w", "write_file", map[string]any{"path": "out.txt", "content": content}, 1, "finished", "write out.txt", nil)}}
		}
		return llmtest.Step{Content: "done"}
	}).on(stagePlan, always(`{"steps": [{"description": "Write out.txt", "tools": ["write_file"], "acceptance": "out.txt holds BUY MILK in upper case"}]}`)).
		on(stageEvaluate, func(req llmtest.Request, n int) string {
			if strings.Contains(last(req.Messages).Content, `"BUY MILK"`) {
				return verdict(true, "upper case")
			}
			return verdict(false, "out.txt holds buy milk in lower case")
		}).on(stageConfidence, confident(0.9))
	h := planHarness(t, s)
	res, events := h.run("write BUY MILK to out.txt")
	if res.Status != event.StatusFinished || res.Totals.Iterations != 3 {
		t.Fatalf("result = %+v", res)
	}
	first := decode[event.StepEvaluatedData](t, ofType(events, event.StepEvaluated)[0])
	if first.Passed || first.NextStep != 1 || first.Reason != "out.txt holds buy milk in lower case" {
		t.Errorf("first check = %+v", first)
	}
	var second []llm.Message
	for _, req := range h.server.Requests() {
		if stageOf(req.Messages) == stageTurn {
			second = req.Messages // the last turn's request holds the whole story
		}
	}
	if !contains(second, llm.RoleUser, "did not pass: out.txt holds buy milk in lower case") {
		t.Error("the model was not told why the check failed")
	}
}

func TestPlan_ContradictionReplansTheRemainingSteps(t *testing.T) {
	s := newStaged(t, func(req llmtest.Request, n int) llmtest.Step {
		switch n {
		case 0:
			return llmtest.Step{ToolCalls: []llm.ToolCall{metaCall("r1", "read_file", map[string]any{"path": "config.yaml"}, 1, "finished", "read the config", nil)}}
		case 1:
			return llmtest.Step{ToolCalls: []llm.ToolCall{metaCall("l1", "list_files", map[string]any{"path": "."}, 1, "finished", "find the config file", nil)}}
		}
		return llmtest.Step{Content: "The config is config.yml."}
	}).on(stagePlan, func(req llmtest.Request, n int) string {
		if n == 0 {
			return `{"assumptions": ["the config is config.yaml"], "steps": [
			 {"description": "Read config.yaml", "tools": ["read_file"], "acceptance": "its content is shown"},
			 {"description": "Report the port", "tools": ["read_file"], "acceptance": "the port is known"}]}`
		}
		if !strings.Contains(last(req.Messages).Content, "no such file") {
			t.Errorf("the replan request lacks the evidence:\n%s", last(req.Messages).Content)
		}
		return `{"assumptions": ["the config has another name"], "steps": [
		 {"description": "Find the config file", "tools": ["list_files"], "acceptance": "a config file is listed"}]}`
	}).on(stageEvaluate, func(req llmtest.Request, n int) string {
		if n == 0 {
			return `{"passed": false, "reason": "config.yaml does not exist", "contradicts_plan": true}`
		}
		return verdict(true, "config.yml is listed")
	}).on(stageConfidence, confident(0.9))
	h := planHarness(t, s)
	h.write("config.yml", "port: 80\n")
	res, events := h.run("What port does the config set?")
	if res.Status != event.StatusFinished {
		t.Fatalf("result = %+v", res)
	}
	revised := ofType(events, event.PlanRevised)
	if len(revised) != 1 {
		t.Fatalf("%d plan.revised events, want 1", len(revised))
	}
	r := decode[event.PlanRevisedData](t, revised[0])
	if r.Reason != "config.yaml does not exist" || len(r.Steps) != 1 || r.Steps[0].Description != "Find the config file" ||
		len(r.Diff.Added) != 1 || len(r.Diff.Removed) != 2 || len(r.Diff.Kept) != 0 {
		t.Errorf("plan.revised = %+v", r)
	}
	// The step's last call failed, so it was checked right away: the next
	// decision was made under the revised plan.
	if d := decode[event.StepEvaluatedData](t, ofType(events, event.StepEvaluated)[0]); d.InDecision || !d.ContradictsPlan {
		t.Errorf("step.evaluated = %+v", d)
	}
	var second []llm.Message
	for _, req := range h.server.Requests() {
		if stageOf(req.Messages) == stageTurn {
			if second = req.Messages; len(req.Messages) > 2 {
				break
			}
		}
	}
	if !strings.Contains(second[1].Content, "1. [current] Find the config file") {
		t.Errorf("the second turn's anchor:\n%s", second[1].Content)
	}
}

func TestPlan_UnmappableStepIsSplit(t *testing.T) {
	s := newStaged(t, func(req llmtest.Request, n int) llmtest.Step { return llmtest.Step{Content: "nothing to do"} }).
		on(stagePlan, func(req llmtest.Request, n int) string {
			if n == 0 {
				return `{"steps": [{"description": "Think hard about it", "tools": [], "acceptance": "an idea"}]}`
			}
			if !strings.Contains(last(req.Messages).Content, "names no tool") {
				t.Errorf("the second plan request does not say what to fix: %s", last(req.Messages).Content)
			}
			return "```json\n{'steps': [{'description': 'List the files', 'tools': ['list_files'], 'acceptance': 'a listing',},]}\n```"
		})
	h := planHarness(t, s)
	h.setup.Limits.NoProgressLimit = 1
	_, events := h.run("tidy up the workspace")
	created := decode[event.PlanCreatedData](t, ofType(events, event.PlanCreated)[0])
	if created.Attempts != 2 || !created.Repaired || len(created.Steps) != 1 || created.Steps[0].Tools[0] != "list_files" {
		t.Errorf("plan.created = %+v", created)
	}
}

func TestPlan_EarlyAnswerEndsAsBestEffortAtTheLimit(t *testing.T) {
	s := newStaged(t, func(req llmtest.Request, n int) llmtest.Step { return llmtest.Step{Content: "All done!"} }).
		on(stagePlan, always(plan2))
	h := planHarness(t, s)
	res, events := h.run("Read notes.txt and write its first line in upper case to out.txt")
	if res.Status != event.StatusGuard || res.Answer != "All done!" || !res.BestEffort || res.Verified {
		t.Fatalf("result = %+v", res)
	}
	if fin := finished(t, events); !fin.BestEffort || fin.Answer != "All done!" {
		t.Errorf("run.finished = %+v", fin)
	}
	checks := ofType(events, event.CompletionChecked)
	if len(checks) != 3 {
		t.Fatalf("%d completion checks, want 3 (one per answer until the no-progress guard)", len(checks))
	}
	c := decode[event.CompletionCheckedData](t, checks[0])
	if c.Passed || !reflect.DeepEqual(c.Missing, []int{1, 2}) || c.StepsRequired != 2 {
		t.Errorf("completion.checked = %+v", c)
	}
	if s.count(stageConfidence) != 0 {
		t.Error("confidence was asked although steps were missing")
	}
}

func TestPlan_LowConfidenceGoesOn(t *testing.T) {
	s := newStaged(t, func(req llmtest.Request, n int) llmtest.Step {
		if n == 0 {
			return llmtest.Step{ToolCalls: []llm.ToolCall{metaCall("c1", "read_file", map[string]any{"path": "notes.txt"}, 1, "finished", "read the notes", nil)}}
		}
		return llmtest.Step{Content: "It says buy milk."}
	}).on(stagePlan, always(`{"steps": [{"description": "Read notes.txt", "tools": ["read_file"], "acceptance": "content shown"}]}`)).
		on(stageEvaluate, always(verdict(true, "shown"))).
		on(stageConfidence, func(req llmtest.Request, n int) string {
			return []string{`{"confidence": 0.4, "reason": "not sure"}`, `{"confidence": 0.85, "reason": "checked"}`}[min(n, 1)]
		})
	h := planHarness(t, s)
	h.write("notes.txt", "buy milk")
	res, events := h.run("What does notes.txt say?")
	if res.Status != event.StatusFinished || res.Totals.Iterations != 3 {
		t.Fatalf("result = %+v", res)
	}
	c := decode[event.CompletionCheckedData](t, ofType(events, event.CompletionChecked)[0])
	if c.Passed || c.Confidence != 0.4 {
		t.Errorf("first completion check = %+v", c)
	}
	if !contains(h.request(len(h.server.Requests())-2), llm.RoleUser, "below the 0.80 it needs (not sure)") {
		t.Error("the model was not told its confidence was too low")
	}
}

func TestPlan_DriftIsFlagged(t *testing.T) {
	s := newStaged(t, func(req llmtest.Request, n int) llmtest.Step {
		switch n {
		case 0:
			return llmtest.Step{ToolCalls: []llm.ToolCall{metaCall("d1", "list_files", map[string]any{"path": "."}, 1, "continue", "browse for something interesting", nil)}}
		case 1:
			return llmtest.Step{ToolCalls: []llm.ToolCall{metaCall("c1", "read_file", map[string]any{"path": "notes.txt"}, 1, "finished", "read notes.txt as the task says", nil)}}
		}
		return llmtest.Step{Content: "buy milk"}
	}).on(stagePlan, always(`{"steps": [{"description": "Read notes.txt", "tools": ["read_file"], "acceptance": "content shown"}]}`)).
		on(stageEvaluate, always(verdict(true, "shown"))).on(stageConfidence, confident(0.9))
	h := planHarness(t, s)
	h.write("notes.txt", "buy milk")
	res, events := h.run("What does notes.txt say?")
	if res.Status != event.StatusFinished {
		t.Fatalf("result = %+v", res)
	}
	var drift []event.GuardTrippedData
	for _, g := range guards(t, events) {
		if g.Guard == event.GuardDrift {
			drift = append(drift, g)
		}
	}
	if len(drift) != 1 || drift[0].Action != event.ActionWarn || drift[0].Stage != event.StageDeciding || !strings.Contains(drift[0].Message, "list_files") {
		t.Fatalf("drift guards = %+v", drift)
	}
	if d := decode[event.ModelDecidedData](t, ofType(events, event.ModelDecided)[0]); d.Drift == "" {
		t.Error("the drifting decision is not flagged")
	}
	if d := decode[event.ModelDecidedData](t, ofType(events, event.ModelDecided)[1]); d.Drift != "" {
		t.Errorf("a decision on the plan is flagged: %s", d.Drift)
	}
	if !contains(h.request(2), llm.RoleUser, "Your last decision drifted from the goal") {
		t.Error("the model was not told it drifted")
	}
	// A call that only continues its step is not checked.
	if n := len(ofType(events, event.StepEvaluated)); n != 1 {
		t.Errorf("%d step checks, want 1", n)
	}
}

func TestPlan_ResumeKeepsThePlan(t *testing.T) {
	s := newStaged(t, func(req llmtest.Request, n int) llmtest.Step {
		if !strings.Contains(req.Messages[1].Content, "1. [passed] Read notes.txt") {
			return llmtest.Step{ToolCalls: []llm.ToolCall{metaCall("c1", "read_file", map[string]any{"path": "notes.txt"}, 1, "finished", "read the notes", nil)}}
		}
		if !strings.Contains(req.Messages[1].Content, "2. [passed]") {
			return llmtest.Step{ToolCalls: []llm.ToolCall{metaCall("c2", "write_file", map[string]any{"path": "out.txt", "content": "BUY MILK"}, 2, "finished", "write out.txt", nil)}}
		}
		return llmtest.Step{Content: "done"}
	}).on(stagePlan, always(plan2)).on(stageEvaluate, always(verdict(true, "ok"))).on(stageConfidence, confident(0.9))
	h := planHarness(t, s)
	h.write("notes.txt", "buy milk")
	sub := h.setup.Bus.Subscribe(1024, nil)
	run, err := agent.NewRun(h.setup, agent.Task{Text: "copy notes.txt in upper case to out.txt", Workspace: h.ws})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		waitFor(t, sub.C, event.StepEvaluated)
		run.Controls().Stop()
	}()
	res, _ := h.execute(run, t.Context())
	h.setup.Bus.Unsubscribe(sub)
	if res.Status != event.StatusStopped {
		t.Fatalf("first leg = %+v", res)
	}
	resumed, err := agent.ResumeRun(h.setup, run.ID())
	if err != nil {
		t.Fatal(err)
	}
	res, events := h.execute(resumed, t.Context())
	if res.Status != event.StatusFinished || s.count(stagePlan) != 1 {
		t.Fatalf("resumed = %+v after %d plans", res, s.count(stagePlan))
	}
	if n := len(ofType(events, event.PlanCreated)); n != 1 {
		t.Errorf("the log holds %d plans, want 1", n)
	}
}

// A model without tool calls gives the verdict in its reply object, beside
// the action, as the plan asks.
func TestPlan_JSONProtocolGivesTheCheckInItsReply(t *testing.T) {
	s := newStaged(t, func(req llmtest.Request, n int) llmtest.Step {
		switch n {
		case 0:
			return llmtest.Step{Content: `{"thought": "read", "step": 1, "step_status": "finished", "serves_goal": "read notes.txt", "action": "read_file", "action_input": {"path": "notes.txt"}, "finished": false}`}
		case 1:
			if !strings.Contains(req.Messages[1].Content, `1. [finished: check it in the next call's _meta`) {
				t.Errorf("the check is not asked for:\n%s", req.Messages[1].Content)
			}
			return llmtest.Step{Content: `{"thought": "write", "step": 2, "step_status": "finished", "serves_goal": "write out.txt", "check": {"passed": true, "reason": "notes.txt says buy milk"}, "action": "write_file", "action_input": {"path": "out.txt", "content": "BUY MILK"}, "finished": false}`}
		}
		return llmtest.Step{Content: `{"thought": "done", "action": "final_answer", "action_input": "Wrote BUY MILK.", "finished": true}`}
	}).on(stagePlan, always(plan2)).
		on(stageEvaluate, always(verdict(true, "out.txt holds BUY MILK"))).
		on(stageConfidence, confident(0.9))
	h := planHarness(t, s)
	h.setup.Protocol = agent.ProtocolJSON
	h.write("notes.txt", "buy milk\n")
	res, events := h.run("Read notes.txt and write its first line in upper case to out.txt")
	if res.Status != event.StatusFinished || res.Totals.StageCalls != 2 {
		t.Fatalf("result = %+v", res)
	}
	if d := decode[event.StepEvaluatedData](t, ofType(events, event.StepEvaluated)[0]); !d.InDecision || !d.Passed || d.Reason != "notes.txt says buy milk" {
		t.Errorf("step.evaluated = %+v", d)
	}
}

// The evaluator judges on compact evidence: each result's start and end,
// with how much of the middle was left out.
func TestPlan_TheEvaluatorSeesCompactEvidence(t *testing.T) {
	s := newStaged(t, func(req llmtest.Request, n int) llmtest.Step {
		if n < 2 {
			// The second call leaves the verdict on step 1 out.
			return llmtest.Step{ToolCalls: []llm.ToolCall{metaCall(fmt.Sprintf("c%d", n), "read_file", map[string]any{"path": "big.txt"}, 1, "finished", "read big.txt", nil)}}
		}
		return llmtest.Step{Content: "big.txt ends with END-MARK."}
	}).on(stagePlan, always(`{"steps": [{"description": "Read big.txt", "tools": ["read_file"], "acceptance": "its last line is shown"}]}`)).
		on(stageEvaluate, func(req llmtest.Request, n int) string {
			msg := req.Messages[1].Content
			if !strings.Contains(msg, "BEGIN") || !strings.Contains(msg, "END-MARK") || !strings.Contains(msg, "characters left out") || len(msg) > 1500 {
				t.Errorf("evaluation request (%d characters):\n%s", len(msg), msg)
			}
			return verdict(true, "END-MARK is shown")
		}).
		on(stageConfidence, confident(0.9))
	h := planHarness(t, s)
	h.write("big.txt", "BEGIN\n"+strings.Repeat("filler line\n", 400)+"END-MARK\n")
	res, _ := h.run("What is the last line of big.txt?")
	if res.Status != event.StatusFinished || s.count(stageEvaluate) == 0 {
		t.Fatalf("result = %+v, %d evaluations", res, s.count(stageEvaluate))
	}
}
