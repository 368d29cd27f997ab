package agent_test

import (
	"strings"
	"testing"

	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
)

func TestRoute_MessagesThatNeedNoToolsAreAnsweredDirectly(t *testing.T) {
	for _, tc := range []struct {
		name, task, classify string
		route, by            string
		iterations           int
	}{
		{name: "greeting by the rules", task: "Hello!", route: event.RouteDirect, by: "rules", iterations: 1},
		{name: "plain question by the model", task: "What does HTTP status 418 mean?", classify: `{"route": "direct", "reason": "general knowledge"}`, route: event.RouteDirect, by: "model", iterations: 1},
		{name: "unsure model routes to the loop", task: "How big is the project?", classify: `{"route": "loop", "reason": "needs the files"}`, route: event.RouteLoop, by: "model", iterations: 2},
		{name: "unreadable classification routes to the loop", task: "How big is the project?", classify: "no idea", route: event.RouteLoop, by: "model", iterations: 2},
		{name: "files by the rules", task: "What does notes.txt say?", route: event.RouteLoop, by: "rules", iterations: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newStaged(t, func(req llmtest.Request, n int) llmtest.Step {
				if n == 0 && len(req.Tools) > 0 {
					return llmtest.Step{ToolCalls: []llm.ToolCall{call("c1", "list_files", map[string]any{"path": "."})}}
				}
				return llmtest.Step{Content: "Hello! How can I help?"}
			}).on(stageRoute, always(tc.classify))
			h := newHarness(t, llmtest.NewFuncServer(t, s.answer))
			h.setup.Route = true
			res, events := h.run(tc.task)
			if res.Status != event.StatusFinished || res.Totals.Iterations != tc.iterations {
				t.Fatalf("result = %+v", res)
			}
			routes := ofType(events, event.RouteDecided)
			if len(routes) != 1 {
				t.Fatalf("%d route.decided events", len(routes))
			}
			r := decode[event.RouteDecidedData](t, routes[0])
			if r.Route != tc.route || r.By != tc.by || r.Reason == "" || (tc.by == "model") != (r.Usage.TotalTokens > 0) {
				t.Errorf("route.decided = %+v", r)
			}
			if tc.route == event.RouteDirect {
				turn := h.server.Requests()[len(h.server.Requests())-1]
				if len(turn.Tools) != 0 {
					t.Errorf("a direct answer was offered %d tools", len(turn.Tools))
				}
				d := decode[event.ModelDecidedData](t, ofType(events, event.ModelDecided)[0])
				if d.Stage != event.StageIntake || d.FinalAnswer == "" {
					t.Errorf("model.decided = %+v", d)
				}
			}
		})
	}
}

func TestRoute_OffMeansNoRoute(t *testing.T) {
	h := newHarness(t, llmtest.NewServer(t, llmtest.Step{Content: "hi"}))
	_, events := h.run("Hello!")
	if n := len(ofType(events, event.RouteDecided)); n != 0 {
		t.Errorf("%d route.decided events with routing off", n)
	}
	if tools := h.server.Requests()[0].Tools; len(tools) == 0 {
		t.Error("with routing off a greeting goes through the loop, tools offered")
	}
}

// Under the plan strategy, a task the classification call says needs one
// or two calls is done without a plan (its answer is still rated); a
// larger one is planned.
func TestRoute_ASmallTaskIsNotPlanned(t *testing.T) {
	for _, tc := range []struct {
		name, classify string
		calls          int
		planned        bool
	}{
		{name: "one call", classify: `{"route": "loop", "reason": "one listing", "calls": 1}`, calls: 1},
		{name: "two calls", classify: `{"route": "loop", "reason": "list, then read", "calls": 2}`, calls: 2},
		{name: "more calls", classify: `{"route": "loop", "reason": "several edits", "calls": 5}`, calls: 5, planned: true},
		{name: "no estimate", classify: `{"route": "loop", "reason": "needs the files"}`, planned: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newStaged(t, func(req llmtest.Request, n int) llmtest.Step {
				if n == 0 {
					return llmtest.Step{ToolCalls: []llm.ToolCall{metaCall("c1", "list_files", map[string]any{"path": "."}, 1, "finished", "see how big the project is", nil)}}
				}
				return llmtest.Step{Content: "The project has no files."}
			}).on(stageRoute, always(tc.classify)).
				on(stagePlan, always(`{"steps": [{"description": "List the project", "tools": ["list_files"], "acceptance": "the files are listed"}]}`)).
				on(stageEvaluate, always(verdict(true, "listed"))).
				on(stageConfidence, confident(0.9))
			h := planHarness(t, s)
			h.setup.Route = true
			res, events := h.run("How big is the project?")
			if res.Status != event.StatusFinished || res.Totals.Iterations != 2 {
				t.Fatalf("result = %+v", res)
			}
			r := decode[event.RouteDecidedData](t, ofType(events, event.RouteDecided)[0])
			if r.Route != event.RouteLoop || r.Calls != tc.calls || r.SkipPlan == tc.planned {
				t.Errorf("route.decided = %+v", r)
			}
			if got := s.count(stagePlan) == 1; got != tc.planned || len(ofType(events, event.PlanCreated)) == 1 != tc.planned {
				t.Errorf("planned %v, want %v", got, tc.planned)
			}
			if s.count(stageConfidence) != 1 {
				t.Errorf("%d completion ratings, want 1", s.count(stageConfidence))
			}
			if !tc.planned && strings.Contains(string(h.server.Requests()[1].Tools[0].Parameters), "_meta") {
				t.Error("a run without a plan was asked for _meta")
			}
		})
	}
}
