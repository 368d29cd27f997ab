package agent_test

import (
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
