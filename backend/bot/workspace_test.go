package bot_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
)

// writerModel writes the task into who.txt in the workspace, then answers
// with the tool's result.
func writerModel(t *testing.T) *llmtest.Server {
	return llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		if last := req.Messages[len(req.Messages)-1]; last.Role == llm.RoleTool {
			return llmtest.Step{Content: "wrote: " + taskOf(req)}
		}
		return llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "call_w", Name: "write_file",
			Arguments: `{"path":"who.txt","content":"` + taskOf(req) + `"}`}}}
	})
}

// workspaces collects the workspace of each run started, by who asked.
func workspaces(h *harness) func() map[string]string {
	sub := h.bus.Subscribe(64, func(e event.Event) bool { return e.Type == event.RunStarted })
	got := map[string]string{}
	return func() map[string]string {
		for {
			select {
			case e := <-sub.C:
				d, err := event.Decode[event.RunStartedData](e)
				if err != nil {
					h.t.Fatal(err)
				}
				got[d.Origin] = d.Workspace
			default:
				return got
			}
		}
	}
}

// Ids that the old naming sent to one folder each get a workspace of their
// own, and an id too long for a file name still gets a run and an answer.
func TestBot_EveryUserHasAWorkspaceOfTheirOwn(t *testing.T) {
	br := newBridge(t)
	cfg := webhookConfig(br)
	cfg.AllowTools = []string{"write_file"}
	h := newHarness(t, "", writerModel(t), cfg)
	seen := workspaces(h)

	long := strings.Repeat("u", 300)
	users := []string{"team/alice", "team_alice", "Team_Alice", long}
	for i, u := range users {
		h.post(u, "m"+string(rune('a'+i)), "task of user "+string(rune('a'+i)))
		br.wait(u, "wrote: task of user "+string(rune('a'+i)))
	}
	ws := seen()
	dirs := map[string]string{}
	for i, u := range users {
		dir := ws["webhook/"+u]
		if dir == "" {
			t.Fatalf("no run started for %.20s…; runs: %v", u, ws)
		}
		if other, ok := dirs[strings.ToLower(dir)]; ok {
			t.Errorf("%q and %.20s… share the workspace %s", other, u, dir)
		}
		dirs[strings.ToLower(dir)] = u
		if n := len(filepath.Base(dir)); n > 64 {
			t.Errorf("workspace folder of %.20s… is %d bytes long", u, n)
		}
		data, err := os.ReadFile(filepath.Join(dir, "who.txt"))
		if want := "task of user " + string(rune('a'+i)); err != nil || string(data) != want {
			t.Errorf("%.20s…'s who.txt = %q (%v), want %q", u, data, err, want)
		}
	}
}

// A workspace made before folders were named this way is moved to the
// new name when the old one was the user's id itself; an id whose old
// folder could have been another's too starts afresh, and the old folder
// stays where it was.
func TestBot_OldWorkspaceFolderIsKept(t *testing.T) {
	home := t.TempDir()
	old := filepath.Join(home, "bot", "workspaces", "webhook")
	for _, name := range []string{"sunqi", "team_bob"} {
		if err := os.MkdirAll(filepath.Join(old, name), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(old, name, "notes.txt"), []byte("notes of "+name), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	model := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		if last := req.Messages[len(req.Messages)-1]; last.Role == llm.RoleTool {
			return llmtest.Step{Content: "read: " + last.Content}
		}
		return llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "call_r", Name: "read_file", Arguments: `{"path":"notes.txt"}`}}}
	})
	br := newBridge(t)
	h := newHarness(t, home, model, webhookConfig(br))
	seen := workspaces(h)

	h.post("sunqi", "m1", "read my notes")
	br.wait("sunqi", "read: notes of sunqi")
	h.post("team/bob", "m2", "read my notes")
	got := br.wait("team/bob", "read: ")
	if strings.Contains(got[len(got)-1], "notes of team_bob") {
		t.Fatalf("team/bob was given the folder team_bob, which may be another user's: %q", got)
	}
	ws := seen()
	if dir := ws["webhook/sunqi"]; filepath.Dir(dir) != old || filepath.Base(dir) == "sunqi" {
		t.Errorf("sunqi's workspace is %s, want a folder of the new name in %s", dir, old)
	}
	if _, err := os.Stat(filepath.Join(old, "sunqi")); !os.IsNotExist(err) {
		t.Errorf("sunqi's old folder is still there (%v): it was copied, not moved", err)
	}
	if _, err := os.Stat(filepath.Join(old, "team_bob", "notes.txt")); err != nil {
		t.Errorf("the old folder team_bob was touched: %v", err)
	}
}

// A task that cannot start is answered with why, in the sender's language,
// and what to do; so is one whose model cannot be reached.
func TestBot_TellsTheSenderWhenATaskCannotStart(t *testing.T) {
	t.Run("workspace cannot be made", func(t *testing.T) {
		br := newBridge(t)
		cfg := webhookConfig(br)
		blocker := filepath.Join(t.TempDir(), "not-a-folder")
		if err := os.WriteFile(blocker, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		cfg.Workspace = blocker
		model := echoModel(t)
		h := newHarness(t, "", model, cfg)
		h.post("alice", "m1", "总结一下笔记")
		got := br.wait("alice", "任务无法开始")
		if last := got[len(got)-1]; !strings.Contains(last, "not-a-folder") || !strings.Contains(last, "[bot] workspace") {
			t.Fatalf("reply %q does not say which folder failed and which setting to check", last)
		}
		h.close()
		if n := len(model.Requests()); n != 0 {
			t.Fatalf("%d model requests for a task that could not start", n)
		}
	})
	t.Run("model cannot be reached", func(t *testing.T) {
		br := newBridge(t)
		model := llmtest.NewFuncServer(t, func(llmtest.Request) llmtest.Step {
			return llmtest.Step{Status: 404, Content: "no such model: test-model"}
		})
		h := newHarness(t, "", model, webhookConfig(br))
		h.post("bob", "m1", "summarise the notes")
		got := br.wait("bob", "The task failed")
		if last := got[len(got)-1]; !strings.Contains(last, "no such model") {
			t.Fatalf("reply %q does not say why", last)
		}
	})
}
