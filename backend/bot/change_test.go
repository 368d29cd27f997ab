package bot_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/agent"
	"hermes/backend/i18n"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/vault"
	"hermes/backend/wecom/wecomtest"
)

// vaultSetup opens a vault of notes in a temporary folder and gives the
// runs its tools.
func vaultSetup(t *testing.T, notes map[string]string) (string, func(*agent.Setup)) {
	t.Helper()
	dir := t.TempDir()
	for p, text := range notes {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	v, err := vault.Open(dir, vault.Options{Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	return dir, func(s *agent.Setup) {
		for _, tool := range vault.Tools(v) {
			if err := s.Tools.Register(tool); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// A vault edit the bot may not make is told in the chat with the change it
// would have made, in the sender's language: why it is asked, the notes
// renamed and the links before → after, the properties before → after,
// lines added. The process runs in the other language, so that what the
// run worded in its own does not reach the chat.
func TestBot_DeniedVaultEditShowsTheChange(t *testing.T) {
	notes := map[string]string{
		"项目/计划.md": "---\nstatus: draft\n---\n# 计划\n",
		"索引.md":    "见 [[计划]] 与 [表](项目/计划.md)。\n",
	}
	for _, tc := range []struct {
		user, task string
		process    i18n.Lang
		calls      []llm.ToolCall
		want       []string
	}{
		{"zhouwu", "把计划移到归档", i18n.EN, []llm.ToolCall{{ID: "call_r", Name: "rename_note", Arguments: `{"path":"项目/计划.md","new_path":"归档/计划 2024.md"}`}},
			[]string{"我没有运行工具 rename_note：它需要人工批准（write 类工具，机器人需要询问）", "它原本会做出这些修改：", "• 项目/计划.md → 归档/计划 2024.md", "• 索引.md", "[[计划]] → [[计划 2024]]", "[表](项目/计划.md) → [表](归档/计划%202024.md)"}},
		{"wuzhi", "mark the plan done and log it", i18n.ZH, []llm.ToolCall{
			{ID: "call_p", Name: "set_property", Arguments: `{"path":"项目/计划.md","name":"status","value":"done"}`},
			{ID: "call_a", Name: "append_note", Arguments: `{"note":"项目/计划.md","content":"Done on Friday."}`},
		}, []string{"I did not run the tool set_property: it needs a person's approval (a write tool, which the bot asks about)", "It would have changed:\n• 项目/计划.md\n  status: draft → done", "I did not run the tool append_note", "+ Done on Friday."}},
	} {
		t.Run(tc.user, func(t *testing.T) {
			was := i18n.Current()
			i18n.SetLang(tc.process)
			t.Cleanup(func() { i18n.SetLang(was) })
			dir, with := vaultSetup(t, notes)
			wecom := wecomtest.NewServer(t, testCorpID, testSecret, 0)
			n := 0
			model := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
				if n++; n == 1 {
					return llmtest.Step{ToolCalls: tc.calls}
				}
				return llmtest.Step{Content: "not allowed here"}
			})
			h := newHarness(t, "", model, botConfig(wecom), with)
			h.send(tc.user, "m1", tc.task)
			got := strings.Join(waitMessage(t, wecom, tc.user, "not allowed here"), "\n---\n")
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("the chat lacks %q:\n%s", w, got)
				}
			}
			for p, text := range notes {
				if b, err := os.ReadFile(filepath.Join(dir, p)); err != nil || string(b) != text {
					t.Errorf("%s changed though the edit was denied: %q, %v", p, b, err)
				}
			}
		})
	}
}
