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
	"hermes/backend/sandbox"
	"hermes/backend/toolbox"
	"hermes/backend/wecom/wecomtest"
)

// Two chat users share one bot, each with a workspace of their own; the
// commands of one's runs can neither read the other's files nor list whose
// workspaces there are, and the model is told the sandbox blocked them.
func TestBot_ChatUsersCannotReadEachOthersFiles(t *testing.T) {
	if st := (sandbox.Policy{Mode: sandbox.Workspace}).Status(); !st.Enforced {
		t.Skipf("no sandbox on this machine: %s", st.Why)
	}
	const diary = "diary: the launch moves to May 7"
	wecom := wecomtest.NewServer(t, testCorpID, testSecret, 0)
	var h *harness
	model := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		task, last := taskOf(req), req.Messages[len(req.Messages)-1]
		switch {
		case last.Role == llm.RoleTool:
			return llmtest.Step{Content: "done: " + last.Content}
		case strings.Contains(task, "keep my diary"):
			args, _ := json.Marshal(map[string]string{"command": "printf '%s' '" + diary + "' > diary.txt && cat diary.txt"})
			return llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "c1", Name: "execute_command", Arguments: string(args)}}}
		default:
			theirs := h.bot.Workspace("wecom", "zhaoliu")
			args, _ := json.Marshal(map[string]string{
				"command": "cat " + filepath.Join(theirs, "diary.txt") + "; ls " + filepath.Dir(theirs) + "; cp -r " + theirs + " stolen",
			})
			return llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "c2", Name: "execute_command", Arguments: string(args)}}}
		}
	})
	cfg := botConfig(wecom)
	cfg.AllowTools = []string{"execute_command"}
	h = newHarness(t, "", model, cfg, func(s *agent.Setup) {
		if err := s.Tools.Register(toolbox.ExecuteCommand(0, 64*1024, nil)); err != nil {
			t.Fatal(err)
		}
	})

	h.send("zhaoliu", "m1", "keep my diary")
	if got := waitMessage(t, wecom, "zhaoliu", "done:"); !strings.Contains(strings.Join(got, "\n"), diary) {
		t.Fatalf("the diary was not written in zhaoliu's own workspace: %q", got)
	}
	h.send("qianqi", "m2", "what do the others write?")
	got := strings.Join(waitMessage(t, wecom, "qianqi", "done:"), "\n")
	if strings.Contains(got, diary) || !strings.Contains(got, "ls: cannot open directory") {
		t.Fatalf("qianqi's run read zhaoliu's diary or listed whose workspaces there are: %q", got)
	}
	if !strings.Contains(got, "blocked by the sandbox") {
		t.Fatalf("the model was not told the sandbox blocked the reads: %q", got)
	}
	if _, err := os.Stat(filepath.Join(h.bot.Workspace("wecom", "qianqi"), "stolen", "diary.txt")); err == nil {
		t.Fatal("qianqi's run copied zhaoliu's diary")
	}
}
