package cli_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"hermes/backend/cli"
	"hermes/backend/event"
	"hermes/backend/llm"
)

func TestPin_FactReachesTheOwnersLiveRun(t *testing.T) {
	hold := make(chan struct{})
	var holding atomic.Bool
	holding.Store(true)
	srv := writeSteps(t, 1, 0, hold, &holding)
	home := modelHome(t, srv.URL, t.TempDir())
	owner := startServeProcess(t, home)
	defer owner.stop(t)

	res := owner.authed(t, "POST", "api/runs", `{"task":"write one file"}`)
	var ref struct {
		RunID string `json:"run_id"`
	}
	decodeErr := json.NewDecoder(res.Body).Decode(&ref)
	res.Body.Close()
	if decodeErr != nil {
		t.Fatal(decodeErr)
	}
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("start: %d", res.StatusCode)
	}
	events := sse(t, owner.served, ref.RunID)

	out := runHermes(t, "pin", "--home", home, ref.RunID, "the budget is 500 EUR")
	if out.code != cli.ExitOK || !strings.Contains(out.stdout, ref.RunID) {
		t.Fatalf("pin: exit %d\n%s%s", out.code, out.stdout, out.stderr)
	}
	holding.Store(false)
	close(hold)
	pinned := false
	for e := range events {
		switch e.Type {
		case event.ContextPinned:
			pinned = true
		case event.ApprovalRequested: // writes are asked by default
			d, _ := event.Decode[event.ApprovalRequestedData](e)
			res := owner.authed(t, "POST", "api/runs/"+ref.RunID+"/approvals/"+d.ApprovalID, `{"decision":"allow_once"}`)
			res.Body.Close()
		}
	}
	if !pinned {
		t.Fatal("the run never pinned the fact")
	}
	// A request after the pin carries the fact in the task anchor.
	carried := false
	for _, r := range srv.Requests() {
		if len(r.Messages) > 1 && r.Messages[1].Role == llm.RoleUser && strings.Contains(r.Messages[1].Content, "the budget is 500 EUR") {
			carried = true
		}
	}
	if !carried {
		t.Error("no request after the pin carried the fact in its anchor")
	}
}

func TestPin_NoOwnerSaysWhatToDo(t *testing.T) {
	var holding atomic.Bool
	srv := writeSteps(t, 1, -1, nil, &holding)
	home, ws := t.TempDir(), t.TempDir()
	if out := runHermes(t, "run", "--yes", "--home", home, "--base-url", srv.URL, "--workspace", ws, "write one file"); out.code != cli.ExitOK {
		t.Fatalf("run: exit %d\n%s", out.code, out.stderr)
	}
	out := runHermes(t, "runs", "--home", home, "--json")
	var runs []struct {
		RunID string `json:"run_id"`
	}
	if err := json.Unmarshal([]byte(out.stdout), &runs); err != nil || len(runs) == 0 {
		t.Fatalf("hermes runs --json: %v\n%s", err, out.stdout)
	}
	out = runHermes(t, "pin", "--home", home, runs[0].RunID, "a fact")
	if out.code != cli.ExitFailed || !strings.Contains(out.stderr, "is not live") {
		t.Errorf("pin without an owner: exit %d, %q", out.code, out.stderr)
	}
	if out := runHermes(t, "pin", "--home", home); out.code != cli.ExitUsage {
		t.Errorf("pin without arguments: exit %d", out.code)
	}
}
