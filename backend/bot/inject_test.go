package bot_test

import (
	"encoding/json"
	"strings"
	"testing"

	"hermes/backend/agent"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/wecom/wecomtest"
)

// A message that comes while the model is deciding is added to the task;
// when the model then answers instead of calling a tool, the task ends
// without it, and the sender is told it is now a task of its own.
func TestBot_InjectedMessageTheRunEndsWithoutIsToldAndRun(t *testing.T) {
	wecom := wecomtest.NewServer(t, testCorpID, testSecret, 0)
	model, arrived, release := blockingModel(t, llmtest.Step{Content: "the first answer"}, func(req llmtest.Request) llmtest.Step {
		return llmtest.Step{Content: "answer to: " + taskOf(req)}
	})
	h := newHarness(t, "", model, botConfig(wecom))

	h.send("zhou", "m1", "first task")
	<-arrived
	h.send("zhou", "m2", "also check the PDFs")
	waitMessage(t, wecom, "zhou", "Added to the task")
	close(release)
	got := waitMessage(t, wecom, "zhou", "answer to: also check the PDFs")
	want := []string{"Added to the task", "the first answer", "as a new task", "answer to: also check the PDFs"}
	if len(got) != len(want) {
		t.Fatalf("messages %q, want %q", got, want)
	}
	for i, w := range want {
		if !strings.Contains(got[i], w) {
			t.Errorf("message %d = %q, want %q", i, got[i], w)
		}
	}
}

// planModel plans one step, lists the workspace for it, then answers; the
// first rating of its answer waits for release.
func planModel(t *testing.T) (model *llmtest.Server, rating chan struct{}, release chan struct{}) {
	rating, release = make(chan struct{}, 1), make(chan struct{})
	reply := func(v any) llmtest.Step {
		b, _ := json.Marshal(v)
		return llmtest.Step{Content: string(b)}
	}
	rated := false
	model = llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		switch sys := req.Messages[0].Content; {
		case strings.HasPrefix(sys, "You are the planner"):
			return reply(map[string]any{"steps": []map[string]any{{"description": "List the files", "tools": []string{"list_files"}, "acceptance": "the files are listed"}}})
		case strings.HasPrefix(sys, "You check one step"):
			return reply(map[string]any{"passed": true, "reason": "listed"})
		case strings.HasPrefix(sys, "You rate how sure"):
			step := reply(map[string]any{"confidence": 0.9, "reason": "listed"})
			if !rated {
				rated = true
				rating <- struct{}{}
				step.Wait = release
			}
			return step
		}
		task, _, _ := strings.Cut(taskOf(req), "\n\nPlan (")
		if strings.Contains(req.Messages[1].Content, "1. [passed]") {
			return llmtest.Step{Content: "answer to: " + task}
		}
		args, _ := json.Marshal(map[string]any{"path": ".", "_meta": map[string]any{
			"step": 1, "step_status": "finished", "serves_goal": "list the files", "provenance": map[string]string{"path": "user"},
		}})
		return llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "c1", Name: "list_files", Arguments: string(args)}}}
	})
	return model, rating, release
}

// A message that comes once the model has given its final answer cannot be
// part of the task any more: the sender is told it will be a new task once
// this one finishes, in their language, and it is.
func TestBot_MessageWhileTheRunFinishesIsTheNextTask(t *testing.T) {
	for _, tc := range []struct{ lang, text, want string }{
		{"en", "then sort them by size", "as a new task as soon as"},
		{"zh", "然后按大小排序", "当前任务结束后作为新任务处理"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			wecom := wecomtest.NewServer(t, testCorpID, testSecret, 0)
			model, rating, release := planModel(t)
			h := newHarness(t, "", model, botConfig(wecom), func(s *agent.Setup) { s.Strategy = agent.StrategyPlan })

			h.send("wu", "m1", "list my files")
			<-rating // the answer is given; only its rating is left
			h.send("wu", "m2", tc.text)
			waitMessage(t, wecom, "wu", tc.want)
			close(release)
			got := waitMessage(t, wecom, "wu", "answer to: "+tc.text)
			want := []string{tc.want, "answer to: list my files", "answer to: " + tc.text}
			if len(got) != len(want) {
				t.Fatalf("messages %q, want %q", got, want)
			}
			for i, w := range want {
				if !strings.Contains(got[i], w) {
					t.Errorf("message %d = %q, want %q", i, got[i], w)
				}
			}
		})
	}
}
