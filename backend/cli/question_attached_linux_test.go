package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/event"
)

// TestRun_QuestionAtTheTerminalWhenAttached: a run that goes on in the
// process that owns the home asks its question at the terminal too, and
// the answer typed in is what the model uses next.
func TestRun_QuestionAtTheTerminalWhenAttached(t *testing.T) {
	srv := guessingModel(t)
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "june.md"), []byte("We agreed on the budget."), 0o644); err != nil {
		t.Fatal(err)
	}
	home := modelHome(t, srv.URL, ws)
	defer startServeProcess(t, home).stop(t)
	master, slave := openPTY(t)
	cmd := hermes(t, "run", "--json", "--home", home, "--workspace", ws, "Summarise the meeting notes")
	cmd.Stdin = slave
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if _, err := master.WriteString("june.md\n"); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "attached to hermes serve") {
		t.Fatalf("the run did not go on in the owner:\n%s", stderr.String())
	}
	var answer string
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var e event.Event
		if json.Unmarshal([]byte(line), &e) == nil && e.Type == event.QuestionAnswered {
			d, _ := event.Decode[event.QuestionAnsweredData](e)
			answer = d.By + ":" + d.Answer
		}
	}
	if answer != "user:june.md" {
		t.Fatalf("answer %q\n%s", answer, stderr.String())
	}
}
