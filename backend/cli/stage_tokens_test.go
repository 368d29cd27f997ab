package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
)

// checkingModel plans one step, reads notes.txt for it and answers; it
// gives the step's check with the rating of its answer.
func checkingModel(t *testing.T) *llmtest.Server {
	return llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		sys := req.Messages[0].Content
		switch {
		case strings.HasPrefix(sys, "You are the planner"):
			return llmtest.Step{Content: `{"steps": [{"description": "Read notes.txt", "tools": ["read_file"], "acceptance": "its text is shown"}]}`}
		case strings.HasPrefix(sys, "You rate how sure"):
			return llmtest.Step{Content: `{"passed": true, "reason": "the text is shown", "contradicts_plan": false, "confidence": 0.9, "confidence_reason": "read it"}`}
		case !strings.HasPrefix(sys, "You are Hermes"):
			t.Errorf("unexpected stage call: %.40s", sys)
			return llmtest.Step{Content: "{}"}
		}
		for _, m := range req.Messages {
			if m.Role == llm.RoleTool {
				return llmtest.Step{Content: "notes.txt says buy milk."}
			}
		}
		args, _ := json.Marshal(map[string]any{"path": "notes.txt", "_meta": map[string]any{"step": 1, "step_status": "finished", "serves_goal": "read the notes"}})
		return llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "c1", Name: "read_file", Arguments: string(args)}}}
	})
}

// The terminal's totals say what each stage spent, after the run's
// totals, in the user's language.
func TestRun_TotalsShowTheTokensOfEachStage(t *testing.T) {
	srv := checkingModel(t)
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "notes.txt"), []byte("buy milk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ lang, want string }{
		{"en", `tokens by stage: plan [\d.]+k? · decide [\d.]+k? · evaluate [\d.]+k? · answer [\d.]+k?\n`},
		{"zh", `各阶段令牌：规划 [\d.]+k? · 决策 [\d.]+k? · 评估 [\d.]+k? · 回答 [\d.]+k?\n`},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			cmd := hermes(t, "run", "--home", t.TempDir(), "--base-url", srv.URL, "--workspace", ws, "What does notes.txt say?")
			cmd.Env = append(cmd.Env, "HERMES_LANG="+tc.lang)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if !regexp.MustCompile(tc.want).Match(out) {
				t.Errorf("want a line matching %q:\n%s", tc.want, out)
			}
		})
	}
}
