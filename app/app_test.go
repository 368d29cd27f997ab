package app_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"hermes/app"
	"hermes/backend/i18n"
	"hermes/backend/runlog"
	"hermes/backend/server/servertest"
)

func TestApp_ListRunsAndEvents(t *testing.T) {
	home := t.TempDir()
	written, err := servertest.WriteSample(home, time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	// A damaged log is left out; the good ones still list.
	bad := filepath.Join(home, "logs", "2026-11-01", "run_20261101-000000-bad000.jsonl")
	if err := os.MkdirAll(filepath.Dir(bad), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("garbage\n{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	a := app.New(home)

	runs, err := a.ListRuns()
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != len(written) {
		t.Fatalf("got %d runs, want %d", len(runs), len(written))
	}
	for i, w := range written {
		if runs[i].RunID != w.RunID || runs[i].Status != w.Status || runs[i].Tokens != w.Tokens {
			t.Errorf("run %d = %s %s %d tokens, want %s %s %d", i, runs[i].RunID, runs[i].Status, runs[i].Tokens, w.RunID, w.Status, w.Tokens)
		}
	}

	events, err := a.RunEvents(written[0].RunID)
	if err != nil {
		t.Fatal(err)
	}
	if len(events) != written[0].Events {
		t.Fatalf("got %d events, want %d", len(events), written[0].Events)
	}
	for i, e := range events {
		if e.Seq != int64(i+1) {
			t.Fatalf("event %d has seq %d", i, e.Seq)
		}
	}
}

func TestApp_EmptyHomeAndUnknownRun(t *testing.T) {
	a := app.New(t.TempDir())
	runs, err := a.ListRuns()
	if err != nil || runs == nil || len(runs) != 0 {
		t.Fatalf("ListRuns on an empty home = %v, %v; want an empty list", runs, err)
	}
	if _, err := a.RunEvents("20261130-000000-abcdef"); !errors.Is(err, runlog.ErrRunNotFound) {
		t.Fatalf("RunEvents of an unknown run: %v", err)
	}
}

func TestApp_Language(t *testing.T) {
	before := i18n.Current()
	t.Cleanup(func() { i18n.SetLang(before) })
	for _, l := range []i18n.Lang{i18n.ZH, i18n.EN} {
		i18n.SetLang(l)
		if got := app.New("").Language(); got != string(l) {
			t.Errorf("Language() = %q, want %q", got, l)
		}
	}
}
