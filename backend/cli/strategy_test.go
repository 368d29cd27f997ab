package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/agent/agenttest"
	"hermes/backend/cli"
	"hermes/backend/event"
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

func TestRun_QuestionWithoutATerminal(t *testing.T) {
	srv := agenttest.GuessingModel(t)
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
