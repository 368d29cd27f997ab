package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/cli"
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
)

// reactHome is a home whose runs act and observe without routing or
// planning calls, for the models scripted turn by turn.
func reactHome(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte("[agent]\nstrategy = \"react\"\nroute = false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return home
}

// guessingModel plans one step, reading the meeting notes; it guesses
// their path, reads the path it is told instead, and answers once the step
// has passed. It answers the stage calls of the plan strategy by their
// system prompts.
func guessingModel(t *testing.T) *llmtest.Server {
	read := func(path, from string) llmtest.Step {
		args, _ := json.Marshal(map[string]any{"path": path, "_meta": map[string]any{
			"step": 1, "step_status": "finished", "serves_goal": "read the meeting notes", "provenance": map[string]string{"path": from},
		}})
		return llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "c_" + from, Name: "read_file", Arguments: string(args)}}}
	}
	return llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		sys := req.Messages[0].Content
		switch {
		case strings.HasPrefix(sys, "You are the planner"):
			return llmtest.Step{Content: `{"steps": [{"description": "Read the meeting notes", "tools": ["read_file"], "acceptance": "the notes are shown"}]}`}
		case strings.HasPrefix(sys, "You check one step"):
			return llmtest.Step{Content: `{"passed": true, "reason": "the notes are shown"}`}
		case strings.HasPrefix(sys, "You rate how sure"):
			return llmtest.Step{Content: `{"confidence": 0.9, "reason": "read them"}`}
		}
		if strings.Contains(req.Messages[1].Content, "1. [passed]") {
			return llmtest.Step{Content: "The meeting agreed on the budget."}
		}
		for _, m := range req.Messages {
			if m.Role == llm.RoleUser && strings.Contains(m.Content, "The user says: june.md") {
				return read("june.md", "user")
			}
			if m.Role == llm.RoleUser && strings.Contains(m.Content, "No one can tell you") {
				return llmtest.Step{Content: "I need the path of the meeting notes."}
			}
		}
		return read("meeting.md", "inferred")
	})
}

func TestRun_QuestionWithoutATerminal(t *testing.T) {
	srv := guessingModel(t)
	out := runHermes(t, "run", "--json", "--home", t.TempDir(), "--base-url", srv.URL, "--workspace", t.TempDir(), "--max-iterations", "3",
		"Summarise the meeting notes")
	if !strings.Contains(out.stderr, "stdin is not a terminal, so no one can answer") {
		t.Fatalf("exit %d, stderr %q", out.code, out.stderr)
	}
	var answered []event.QuestionAnsweredData
	for _, line := range strings.Split(strings.TrimSpace(out.stdout), "\n") {
		var e event.Event
		if json.Unmarshal([]byte(line), &e) == nil && e.Type == event.QuestionAnswered {
			d, _ := event.Decode[event.QuestionAnsweredData](e)
			answered = append(answered, d)
		}
	}
	if len(answered) != 1 || answered[0].By != "no_one" {
		t.Fatalf("answers %+v", answered)
	}
	if out.code == cli.ExitOK {
		t.Error("the run finished although the step it needed never passed")
	}
}
