package server_test

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"
	"time"

	"hermes/backend/event"
	"hermes/backend/runner"
	"hermes/backend/server/servertest"
)

// GET /api/runs?label= pages only the runs a person labelled so, read from
// the labels in hermes.db: a label on the 500th run of 2,000 is on the
// first page, and q finds a label's note.
func TestServer_ListRunsByLabel(t *testing.T) {
	home := t.TempDir()
	ids := make([]string, 2000) // newest first
	for i := range ids {
		w, err := servertest.WriteRun(home, servertest.Run{
			Task: fmt.Sprintf("task number %d", i), Model: "m", Started: now.Add(-time.Duration(i) * time.Minute), Iterations: 1, Status: event.StatusFinished,
		})
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = w.RunID
	}
	base := startServer(t, home, nil)
	for id, body := range map[string]string{
		ids[499]:  `{"label":"bad","note":"said Monday; the note says Friday"}`,
		ids[1500]: `{"label":"good","note":"one line per note"}`,
		ids[3]:    `{"label":"good"}`,
	} {
		if res, b := fetch(t, "PUT", base+"/api/runs/"+id+"/label", body); res.StatusCode != http.StatusNoContent {
			t.Fatalf("PUT label: %d %s", res.StatusCode, b)
		}
	}
	page := func(query string) runner.RunPage {
		t.Helper()
		var p runner.RunPage
		if res := get(t, base+"/api/runs?"+query, &p); res.StatusCode != http.StatusOK {
			t.Fatalf("GET /api/runs?%s: %d", query, res.StatusCode)
		}
		return p
	}
	runIDs := func(p runner.RunPage) []string {
		out := []string{}
		for _, r := range p.Runs {
			out = append(out, r.RunID)
		}
		return out
	}
	if p := page("limit=50&label=bad"); fmt.Sprint(runIDs(p)) != fmt.Sprint([]string{ids[499]}) || p.Next != "" {
		t.Errorf("label=bad: %v next %q, want [%s]", runIDs(p), p.Next, ids[499])
	}
	if p := page("limit=1&label=good"); fmt.Sprint(runIDs(p)) != fmt.Sprint([]string{ids[3]}) || p.Next != ids[3] {
		t.Errorf("label=good, first page: %v next %q", runIDs(p), p.Next)
	}
	if p := page("limit=1&label=good&before=" + ids[3]); fmt.Sprint(runIDs(p)) != fmt.Sprint([]string{ids[1500]}) {
		t.Errorf("label=good, second page: %v next %q", runIDs(p), p.Next)
	}
	if p := page("limit=50&label=good&status=stopped"); len(p.Runs) != 0 {
		t.Errorf("label and status: %v", runIDs(p))
	}
	if p := page("limit=50&q=" + url.QueryEscape("NOTE SAYS FRIDAY")); fmt.Sprint(runIDs(p)) != fmt.Sprint([]string{ids[499]}) {
		t.Errorf("q on a label's note: %v", runIDs(p))
	}
	if p := page("limit=50&label=bad&q=monday"); len(p.Runs) != 1 {
		t.Errorf("label and q: %v", runIDs(p))
	}
	var bad errorBody
	if res := get(t, base+"/api/runs?limit=5&label=great", &bad); res.StatusCode != http.StatusBadRequest || bad.Error.Code != "bad_label" || bad.Error.Message["zh-CN"] == "" {
		t.Errorf("label=great: %d %+v", res.StatusCode, bad)
	}
}
