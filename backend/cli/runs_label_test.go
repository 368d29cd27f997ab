package cli_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"hermes/backend/cli"
	"hermes/backend/runlog"
)

// TestRunsLabel_AskedOfTheOwner: while another process owns the home
// (hermes eval run with a live run, which holds hermes.db; hermes serve),
// hermes runs --label asks it for the runs labelled so, filtered there, as
// well as when no process owns the home; --limit counts the labelled runs.
func TestRunsLabel_AskedOfTheOwner(t *testing.T) {
	m := newEvalModel(t)
	home, dir := evalHome(t, m)
	suite := writeSuite(t, dir, "flaky.toml", "name = \"f\"\n[[task]]\nid = \"flaky\"\ntask = \"flaky: write OUT.txt\"\n  [[task.check]]\n  file = \"OUT.txt\"\n  equals = \"ok\"\n")
	ev := decodeEval(t, runHermes(t, "eval", "run", "--home", home, "--base-url", m.URL, "--repeat", "3", "--json", suite))
	if len(ev.Results) != 3 {
		t.Fatalf("results = %+v", ev.Results)
	}
	oldest, newest := ev.Results[0].RunID, ev.Results[2].RunID
	for _, id := range []string{oldest, newest} {
		if l := runHermes(t, "runs", "label", "--home", home, id, "bad", "--note", "wrote bad"); l.code != cli.ExitOK {
			t.Fatalf("label: exit %d\n%s", l.code, l.stderr)
		}
	}
	list := func(args ...string) []string {
		t.Helper()
		out := runHermes(t, append([]string{"runs", "--home", home, "--json"}, args...)...)
		var runs []runlog.Summary
		if out.code != cli.ExitOK || json.Unmarshal([]byte(out.stdout), &runs) != nil {
			t.Fatalf("runs %v: exit %d\n%s%s", args, out.code, out.stdout, out.stderr)
		}
		ids := []string{}
		for _, r := range runs {
			ids = append(ids, r.RunID)
		}
		return ids
	}
	check := func(where string) {
		t.Helper()
		if got := list("--label", "bad"); len(got) != 2 || !strings.Contains(strings.Join(got, " "), oldest) || !strings.Contains(strings.Join(got, " "), newest) {
			t.Errorf("%s: runs --label bad = %v, want %s and %s", where, got, oldest, newest)
		}
		if got := list("--label", "bad", "--limit", "1"); len(got) != 1 {
			t.Errorf("%s: runs --label bad --limit 1 = %v", where, got)
		}
		if got := list("--label", "good"); len(got) != 0 {
			t.Errorf("%s: runs --label good = %v", where, got)
		}
	}
	check("no owner")
	if out := runHermes(t, "runs", "--home", home, "--label", "good"); out.code != cli.ExitOK || !strings.Contains(out.stdout, "No run matches --label good (`hermes runs` lists them all).") {
		t.Errorf("runs --label good, none: exit %d\n%s%s", out.code, out.stdout, out.stderr)
	}
	if out := runHermes(t, "runs", "--home", home, "--status", "stopped", "--label", "bad"); !strings.Contains(out.stdout, "No run matches --status stopped --label bad") {
		t.Errorf("runs --status stopped --label bad, none:\n%s%s", out.stdout, out.stderr)
	}

	// An eval run owns the home, and its live run holds hermes.db.
	notes := writeSuite(t, dir, "s.toml", summarySuite("\n  [[task.check]]\n  file = \"SUMMARY.md\"\n  contains = \"Friday\"\n"))
	hold := make(chan struct{})
	m.holdMu.Lock()
	m.hold = hold
	m.holdMu.Unlock()
	cmd := hermes(t, "eval", "run", "--home", home, "--base-url", m.URL, "--repeat", "2", "--parallel", "1", notes)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	<-m.holding
	check("an eval run owns the home, a run live")
	close(hold)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("eval run: %v", err)
	}

	s := startServeProcess(t, home)
	check("hermes serve owns the home")
	res := s.authed(t, "PUT", "/api/runs/"+ev.Results[1].RunID+"/label", `{"label":"good","note":"fine"}`)
	if res.StatusCode != http.StatusNoContent {
		t.Fatalf("PUT label: %d", res.StatusCode)
	}
	if got := list("--label", "good"); len(got) != 1 || got[0] != ev.Results[1].RunID {
		t.Errorf("runs --label good, labelled in the window = %v", got)
	}
	if code := s.stop(t); code != cli.ExitOK {
		t.Errorf("serve exit %d", code)
	}
}
