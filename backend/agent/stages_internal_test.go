package agent

import (
	"testing"

	"hermes/backend/event"
)

func TestRouteByRules(t *testing.T) {
	for _, tc := range []struct {
		task  string
		route string // "" when the rules leave it to the model
	}{
		{"hi!", event.RouteDirect},
		{"Hello there, Hermes", event.RouteDirect},
		{"thanks", event.RouteDirect},
		{"你好", event.RouteDirect},
		{"谢谢！", event.RouteDirect},
		{"Summarise notes/june.md", event.RouteLoop},
		{"what is in report.csv", event.RouteLoop},
		{"write a poem into the file poem", event.RouteLoop},
		{"整理一下本周的笔记", event.RouteLoop},
		{"hi, please list the files", event.RouteLoop},
		{"What does HTTP status 418 mean?", ""},
		{"e.g. what is a monad", ""},
		{"为什么天空是蓝色的", ""},
	} {
		route, reason, sure := routeByRules(tc.task)
		if route != tc.route || sure != (tc.route != "") || sure && reason == "" {
			t.Errorf("%q: route %q (sure %v, %q), want %q", tc.task, route, sure, reason, tc.route)
		}
	}
}

func TestServesGoal(t *testing.T) {
	for _, tc := range []struct {
		task, reason string
		want         bool
	}{
		{"Summary of the June meetings", "summarise the meeting notes", true},
		{"Read notes.txt and write out.txt", "browse for something interesting", false},
		{"把会议记录写进周报", "整理会议记录", true},
		{"make sure this works", "this will make sure", false},                 // stop words say nothing
		{"Tidy the inbox", "read the step's acceptance: messages filed", true}, // the plan counts too
	} {
		r := &Run{st: state{Task: tc.task, Plan: &planState{Steps: []event.PlanStep{{Description: "File the messages", Acceptance: "every message filed"}}}}}
		if got := r.servesGoal(tc.reason); got != tc.want {
			t.Errorf("servesGoal(%q) under %q = %v", tc.reason, tc.task, got)
		}
	}
}

func TestDiffSteps(t *testing.T) {
	step := func(id int, desc, tool, acc string) event.PlanStep {
		return event.PlanStep{ID: id, Description: desc, Tools: []string{tool}, Acceptance: acc}
	}
	before := []event.PlanStep{step(2, "Read config.yaml", "read_file", "shown"), step(3, "Fix the port", "write_file", "port is 80"), step(4, "Run the tests", "execute_command", "pass")}
	after := []event.PlanStep{step(2, "Find the config", "list_files", "listed"), step(3, "fix the  port", "write_file", "port 80 in config.yml"), step(4, "Run the tests", "execute_command", "pass")}
	d := diffSteps(before, after)
	if len(d.Added) != 1 || d.Added[0].Description != "Find the config" ||
		len(d.Removed) != 1 || d.Removed[0].Description != "Read config.yaml" ||
		len(d.Changed) != 1 || d.Changed[0].Before.Acceptance != "port is 80" || d.Changed[0].After.ID != 3 ||
		len(d.Kept) != 1 || d.Kept[0] != 4 {
		t.Errorf("diff = %+v", d)
	}
}
