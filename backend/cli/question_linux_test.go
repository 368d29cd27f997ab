package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/event"
)

// TestRun_QuestionAtTheTerminal drives `hermes run` through a terminal:
// the model's guessed path fails, Hermes asks, and the answer typed in is
// what the model uses next.
func TestRun_QuestionAtTheTerminal(t *testing.T) {
	srv := guessingModel(t)
	home, ws := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "june.md"), []byte("We agreed on the budget."), 0o644); err != nil {
		t.Fatal(err)
	}
	master, slave := openPTY(t)
	cmd := hermes(t, "run", "--json", "--home", home, "--base-url", srv.URL, "--workspace", ws, "Summarise the meeting notes")
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
	if !strings.Contains(stderr.String(), "meeting.md") {
		t.Errorf("the question was not shown:\n%s", stderr.String())
	}
	var answer string
	var fin event.RunFinishedData
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var e event.Event
		if json.Unmarshal([]byte(line), &e) != nil {
			continue
		}
		switch e.Type {
		case event.QuestionAnswered:
			d, _ := event.Decode[event.QuestionAnsweredData](e)
			answer = d.By + ":" + d.Answer
		case event.RunFinished:
			fin, _ = event.Decode[event.RunFinishedData](e)
		}
	}
	if answer != "user:june.md" || fin.Status != event.StatusFinished || !fin.Verified {
		t.Fatalf("answer %q, finished %+v\n%s", answer, fin, stderr.String())
	}
}
