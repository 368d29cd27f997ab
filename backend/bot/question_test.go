package bot_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/agent"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/wecom/wecomtest"
)

// guessingModel plans one step, guesses the path of the meeting notes, and
// once told the path reads it and answers.
func guessingModel(t *testing.T) *llmtest.Server {
	reply := func(v any) llmtest.Step {
		b, _ := json.Marshal(v)
		return llmtest.Step{Content: string(b)}
	}
	read := func(id, path, from string) llmtest.Step {
		args, _ := json.Marshal(map[string]any{"path": path, "_meta": map[string]any{
			"step": 1, "step_status": "finished", "serves_goal": "read the meeting notes",
			"provenance": map[string]string{"path": from},
		}})
		return llmtest.Step{ToolCalls: []llm.ToolCall{{ID: id, Name: "read_file", Arguments: string(args)}}}
	}
	return llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		switch sys := req.Messages[0].Content; {
		case strings.HasPrefix(sys, "You are the planner"):
			return reply(map[string]any{"steps": []map[string]any{{"description": "Read the meeting notes", "tools": []string{"read_file"}, "acceptance": "the notes are shown"}}})
		case strings.HasPrefix(sys, "You check one step"):
			return reply(map[string]any{"passed": true, "reason": "shown"})
		case strings.HasPrefix(sys, "You rate how sure"):
			return reply(map[string]any{"confidence": 0.9, "reason": "the file was read"})
		}
		for _, m := range req.Messages {
			if m.Role == llm.RoleUser && strings.Contains(m.Content, "The user says: notes/june.md") {
				if strings.Contains(req.Messages[1].Content, "1. [passed]") {
					return llmtest.Step{Content: "The meeting agreed on the budget."}
				}
				return read("c2", "notes/june.md", "user")
			}
		}
		return read("c1", "meeting.md", "inferred")
	})
}

func TestBot_RunAsksTheUser(t *testing.T) {
	cases := []struct {
		name  string
		reply string   // the user's message once asked
		then  []string // what the user hears after the question, in order
	}{
		{"the next message answers", "notes/june.md", []string{"Thanks; the task goes on with your answer.", "The meeting agreed on the budget."}},
		{"stop still stops", "/停止", []string{"将在下一个安全点停止", "已在第"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wecom := wecomtest.NewServer(t, testCorpID, testSecret, 0)
			h := newHarness(t, "", guessingModel(t), botConfig(wecom), func(s *agent.Setup) { s.Strategy = agent.StrategyPlan })
			ws := h.bot.Workspace("wecom", "wangwu")
			if err := os.MkdirAll(filepath.Join(ws, "notes"), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(ws, "notes", "june.md"), []byte("We agreed on the budget."), 0o600); err != nil {
				t.Fatal(err)
			}

			h.send("wangwu", "m1", "总结六月会议的笔记")
			got := waitMessage(t, wecom, "wangwu", "❓")
			// Asked in the language the task was given in.
			if q := got[len(got)-1]; !strings.HasPrefix(q, "❓ 智能体提问") || !strings.Contains(q, `"meeting.md"`) || !strings.Contains(q, "应该用什么值") {
				t.Fatalf("question = %q", q)
			}
			h.send("wangwu", "m2", tc.reply)
			waitMessage(t, wecom, "wangwu", tc.then[len(tc.then)-1])
			// After shutdown nothing more can come: the answer was not also
			// kept as an instruction to start a run of its own.
			h.close()
			got = wecom.Messages("wangwu")
			if len(got) != 1+len(tc.then) {
				t.Fatalf("messages %q, want the question and %q", got, tc.then)
			}
			for i, want := range tc.then {
				if !strings.Contains(got[1+i], want) {
					t.Errorf("message %d = %q, want %q", 1+i, got[1+i], want)
				}
			}
		})
	}
}
