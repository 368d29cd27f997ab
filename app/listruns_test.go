package app_test

import (
	"errors"
	"testing"
	"time"

	"hermes/app"
	"hermes/backend/runner"
	"hermes/backend/server/servertest"
)

// TestApp_ListRunsPage: the window pages the runs as GET /api/runs does,
// both as the home's owner and attached to another process that owns it.
func TestApp_ListRunsPage(t *testing.T) {
	home := t.TempDir()
	written, err := servertest.WriteSample(home, time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	owner := newApp(t, home)
	attached := newApp(t, home)
	for name, a := range map[string]*app.App{"owner": owner, "attached": attached} {
		var got []string
		before := ""
		for range len(written) + 2 {
			page, err := a.ListRunsPage(before, 1, "")
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if len(page.Runs) > 1 {
				t.Fatalf("%s: a page of 1 holds %d runs", name, len(page.Runs))
			}
			for _, r := range page.Runs {
				got = append(got, r.RunID)
			}
			if before = page.Next; before == "" {
				break
			}
		}
		if len(got) != len(written)+1 { // and the sample, last
			t.Fatalf("%s: paged %v, want %d runs", name, got, len(written))
		}
		for i, w := range written {
			if got[i] != w.RunID {
				t.Errorf("%s: run %d is %s, want %s", name, i, got[i], w.RunID)
			}
		}
	}
}

// TestApp_ListRunsPageByLabel: the window asks for the runs labelled so,
// and the owner answers from the labels it keeps, past the first page,
// whether the window owns the home or is attached to its owner.
func TestApp_ListRunsPageByLabel(t *testing.T) {
	home := t.TempDir()
	written, err := servertest.WriteSample(home, time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	owner := newApp(t, home)
	attached := newApp(t, home)
	oldest := written[len(written)-1].RunID
	if err := attached.SetLabel(oldest, "bad", "made up a date"); err != nil {
		t.Fatal(err)
	}
	for name, a := range map[string]*app.App{"owner": owner, "attached": attached} {
		page, err := a.ListRunsPage("", 1, "bad")
		if err != nil || len(page.Runs) != 1 || page.Runs[0].RunID != oldest {
			t.Errorf("%s: the bad runs = %+v, %v; want %s alone", name, page.Runs, err, oldest)
		}
		if page, err := a.ListRunsPage("", 10, "good"); err != nil || len(page.Runs) != 0 {
			t.Errorf("%s: the good runs = %+v, %v; want none", name, page.Runs, err)
		}
		var apiErr runner.APIError
		if _, err := a.ListRunsPage("", 10, "great"); !errors.As(err, &apiErr) || apiErr.Code != "bad_label" {
			t.Errorf("%s: a label that is not good or bad: %v", name, err)
		}
	}
}
