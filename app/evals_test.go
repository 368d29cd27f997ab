package app_test

import (
	"errors"
	"path/filepath"
	"testing"

	"hermes/backend/api"
	"hermes/backend/runner"
)

// The window labels runs, lists evals and makes a test case of a run as
// the local API does, in the home's hermes.db.
func TestApp_LabelsEvalsAndCases(t *testing.T) {
	home := t.TempDir()
	a := newApp(t, home)
	runs, err := a.ListRuns()
	if err != nil || len(runs) != 1 {
		t.Fatalf("ListRuns = %+v, %v", runs, err)
	}
	id := runs[0].RunID // the sample run, finished
	if err := a.SetLabel(id, "bad", " made it up "); err != nil {
		t.Fatal(err)
	}
	labels, err := a.Labels()
	if err != nil || labels[id].Label != "bad" || labels[id].Note != "made it up" {
		t.Fatalf("Labels = %+v, %v", labels, err)
	}
	var apiErr runner.APIError
	if err := a.SetLabel(id, "great", ""); !errors.As(err, &apiErr) || apiErr.Code != "bad_label" {
		t.Errorf("a label that is neither: %v", err)
	}
	if evs, err := a.Evals(); err != nil || len(evs) != 0 {
		t.Errorf("Evals = %+v, %v", evs, err)
	}
	if _, err := a.Eval("ev-nope"); !errors.As(err, &apiErr) || apiErr.Code != "eval_not_found" {
		t.Errorf("an unknown eval: %v", err)
	}
	p, err := a.RunCase(id)
	if err != nil || p.Home != home || p.TOML == "" {
		t.Fatalf("RunCase = %+v, %v", p, err)
	}
	if _, err := a.SaveCase(id, api.CaseRequest{Suite: filepath.Join(t.TempDir(), "x.toml"), TOML: p.TOML}); !errors.As(err, &apiErr) || apiErr.Code != "bad_suite_path" {
		t.Errorf("a suite outside the home: %v", err)
	}
}
