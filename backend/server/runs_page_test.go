package server_test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"hermes/backend/event"
	"hermes/backend/runner"
	"hermes/backend/server/servertest"
)

// GET /api/runs?limit=N pages the runs newest first with a cursor, filters
// by status and by text, and still answers the unpaged array without a query.
func TestServer_ListRunsPaged(t *testing.T) {
	home := t.TempDir()
	var want []string // newest first
	for i := range 12 {
		status := event.StatusFinished
		if i%4 == 0 {
			status = event.StatusStopped
		}
		w, err := servertest.WriteRun(home, servertest.Run{
			Task: fmt.Sprintf("task number %d", i), Model: "m", Started: now.Add(time.Duration(i) * time.Minute), Iterations: 1, Status: status,
		})
		if err != nil {
			t.Fatal(err)
		}
		want = slices.Insert(want, 0, w.RunID)
	}
	url := startServer(t, home, nil)

	var got []string
	before := ""
	for range 4 {
		var page runner.RunPage
		if res := get(t, url+"/api/runs?limit=5&before="+before, &page); res.StatusCode != http.StatusOK {
			t.Fatalf("status %d", res.StatusCode)
		}
		for _, r := range page.Runs {
			got = append(got, r.RunID)
		}
		if before = page.Next; before == "" {
			break
		}
	}
	// The sample run ends the last page, and nothing comes after it.
	if !slices.Equal(got, append(slices.Clone(want), sampleID(t))) {
		t.Fatalf("pages gave %v, want %v and the sample", got, want)
	}
	var after runner.RunPage
	if res := get(t, url+"/api/runs?limit=5&before="+sampleID(t), &after); res.StatusCode != http.StatusOK || len(after.Runs) != 0 || after.Next != "" {
		t.Fatalf("after the sample: %d, %+v", res.StatusCode, after)
	}

	var stopped runner.RunPage
	get(t, url+"/api/runs?limit=2&status=stopped", &stopped)
	if len(stopped.Runs) != 2 || stopped.Runs[0].RunID != want[3] || stopped.Runs[1].RunID != want[7] || stopped.Next != want[7] {
		t.Fatalf("stopped page: %+v", stopped)
	}
	var search runner.RunPage
	get(t, url+"/api/runs?limit=5&q=NUMBER%2011", &search)
	if len(search.Runs) != 1 || search.Runs[0].RunID != want[0] || search.Next != "" {
		t.Fatalf("search page: %+v", search)
	}

	var all []runner.Summary
	get(t, url+"/api/runs", &all)
	if len(all) != len(want)+1 {
		t.Fatalf("unpaged: %d runs, want %d and the sample", len(all), len(want))
	}

	var bad errorBody
	if res := get(t, url+"/api/runs?limit=5&before=no-such-run", &bad); res.StatusCode != http.StatusBadRequest || bad.Error.Code != "bad_cursor" {
		t.Fatalf("bad cursor: status %d, %+v", res.StatusCode, bad)
	}
	if res := get(t, url+"/api/runs?limit=-1", &bad); res.StatusCode != http.StatusBadRequest {
		t.Fatalf("bad limit: status %d", res.StatusCode)
	}
}
