package agent_test

import (
	"strings"
	"testing"

	"hermes/backend/agent"
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
)

func TestJSONProtocol_CallsAndAnswersInText(t *testing.T) {
	srv := llmtest.NewServer(t,
		llmtest.Step{Content: "Sure.\n```json\n{'thought': 'read it first', 'action': 'read_file', 'action_input': {'path': 'a.txt'}, 'finished': False,}\n```"},
		llmtest.Step{Content: "I am done now."},
		llmtest.Step{Content: `{"thought": "it says alpha", "action": "final_answer", "action_input": "a.txt says alpha", "finished": true}`},
	)
	h := newHarness(t, srv)
	h.setup.Protocol = agent.ProtocolJSON
	h.write("a.txt", "alpha")
	res, events := h.run("What does a.txt say?")
	if res.Status != event.StatusFinished || res.Answer != "a.txt says alpha" || !res.Verified {
		t.Fatalf("result = %+v", res)
	}
	reqs := srv.Requests()
	for i, req := range reqs {
		if len(req.Tools) != 0 {
			t.Errorf("request %d offered tools to a model without tool calls", i)
		}
		for _, m := range req.Messages {
			if m.Role == llm.RoleTool || len(m.ToolCalls) > 0 {
				t.Errorf("request %d holds a tool message: %+v", i, m)
			}
		}
	}
	if sys := reqs[0].Messages[0].Content; !strings.Contains(sys, `"action_input"`) || !strings.Contains(sys, "- read_file:") {
		t.Errorf("the system prompt does not teach the protocol:\n%s", sys)
	}
	if m := last(reqs[1].Messages); m.Role != llm.RoleUser || m.Content != "Result of read_file:\nalpha" {
		t.Errorf("the result came back as %+v", m)
	}
	if !contains(reqs[2].Messages, llm.RoleUser, "Your reply was not the JSON object asked for") {
		t.Error("the unreadable reply was not sent back with the format")
	}
	// The same events as with tool calls: a decided call, repaired, and its result.
	d := decode[event.ModelDecidedData](t, ofType(events, event.ModelDecided)[0])
	if len(d.ToolCalls) != 1 || d.ToolCalls[0].Name != "read_file" || !d.ToolCalls[0].Valid || d.Thought != "read it first" {
		t.Errorf("model.decided = %+v", d)
	}
	if r := toolResults(t, events); len(r) != 1 || !r[0].OK || r[0].Result != "alpha" {
		t.Errorf("tool results = %+v", r)
	}
	if g := guards(t, events); len(g) != 1 || g[0].Guard != event.GuardInvalidCall || g[0].Action != event.ActionWarn {
		t.Errorf("guards = %+v", g)
	}
	if built := decode[event.ContextBuiltData](t, ofType(events, event.ContextBuilt)[0]); len(built.ToolNames) == 0 || built.Layers.ToolSchemas != 0 {
		t.Errorf("context.built = tools %v, schema tokens %d", built.ToolNames, built.Layers.ToolSchemas)
	}
}

func TestJSONProtocol_PlanMetaAtTheTopLevel(t *testing.T) {
	s := newStaged(t, func(req llmtest.Request, n int) llmtest.Step {
		if n == 0 {
			if !strings.Contains(req.Messages[0].Content, `"step_status"`) {
				t.Error("the protocol does not ask for the decision's step")
			}
			return llmtest.Step{Content: `{"thought": "read", "step": 1, "step_status": "finished", "serves_goal": "read notes.txt", "provenance": {"path": "user"}, "action": "read_file", "action_input": "{\"path\": \"notes.txt\"}", "finished": false}`}
		}
		return llmtest.Step{Content: `{"thought": "done", "action": "final_answer", "action_input": {"answer": "buy milk"}, "finished": true}`}
	}).on(stagePlan, always(`{"steps": [{"description": "Read notes.txt", "tools": ["read_file"], "acceptance": "content shown"}]}`)).
		on(stageEvaluate, always(verdict(true, "shown"))).on(stageConfidence, confident(0.9))
	h := planHarness(t, s)
	h.setup.Protocol = agent.ProtocolJSON
	h.write("notes.txt", "buy milk")
	res, events := h.run("What does notes.txt say?")
	if res.Status != event.StatusFinished || res.Answer != "buy milk" {
		t.Fatalf("result = %+v", res)
	}
	d := decode[event.ModelDecidedData](t, ofType(events, event.ModelDecided)[0])
	if d.Step != 1 || d.StepStatus != "finished" || d.ToolCalls[0].Provenance["path"] != event.FromUser || !d.ToolCalls[0].Valid {
		t.Errorf("model.decided = %+v", d)
	}
}
