package app_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"hermes/app"
	"hermes/backend/agent"
	"hermes/backend/host"
	"hermes/backend/i18n"
	"hermes/backend/longterm"
	"hermes/backend/runner"
	"hermes/backend/server/servertest"
	"hermes/backend/store"
)

// newApp opens home as the window does: a real lock and local API on
// loopback, closed when the test ends.
func newApp(t *testing.T, home string) *app.App {
	t.Helper()
	h, err := host.Open(t.Context(), home, host.Desktop, host.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close(context.Background()) })
	return app.New(h)
}

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
	a := newApp(t, home)

	runs, err := a.ListRuns()
	if err != nil {
		t.Fatal(err)
	}
	// The sample run ends the list, after the home's own runs.
	if len(runs) != len(written)+1 || !runs[len(written)].Sample {
		t.Fatalf("got %d runs, want %d and the sample", len(runs), len(written))
	}
	for i, w := range written {
		if runs[i].RunID != w.RunID || runs[i].Status != w.Status || runs[i].Tokens != w.Tokens || runs[i].Live || runs[i].Sample {
			t.Errorf("run %d = %+v, want %s %s %d tokens", i, runs[i], w.RunID, w.Status, w.Tokens)
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

func TestApp_EmptyHomeShowsTheSample(t *testing.T) {
	a := newApp(t, t.TempDir())
	runs, err := a.ListRuns()
	if err != nil || len(runs) != 1 || !runs[0].Sample {
		t.Fatalf("ListRuns on an empty home = %+v, %v; want the sample run", runs, err)
	}
	events, err := a.RunEvents(runs[0].RunID)
	if err != nil || len(events) == 0 {
		t.Fatalf("the sample's events: %d, %v", len(events), err)
	}
}

// TestApp_ErrorsRejectWithTheAPIJSON: a failed call rejects the UI's
// promise with the {"error": …} JSON of the HTTP API, in both languages.
func TestApp_ErrorsRejectWithTheAPIJSON(t *testing.T) {
	a := newApp(t, t.TempDir())
	tests := []struct {
		name string
		call func() error
		code string
	}{
		{"unknown run", func() error { _, err := a.RunEvents("20261130-000000-abcdef"); return err }, "run_not_found"},
		{"empty task", func() error { _, err := a.StartRun(runner.StartRequest{Task: " "}); return err }, "no_task"},
		{"bad control", func() error { return a.Control("20261130-000000-abcdef", agent.Control{Kind: "dance"}) }, "bad_control"},
		{"bad decision", func() error { return a.Approve("x", "y", runner.Answer{Decision: "maybe"}) }, "bad_decision"},
		{"not live", func() error { return a.DeleteRun("20261130-000000-abcdef") }, "run_not_found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			var body struct {
				Error struct {
					Code    string            `json:"code"`
					Message map[string]string `json:"message"`
				} `json:"error"`
			}
			if err == nil || json.Unmarshal([]byte(err.Error()), &body) != nil {
				t.Fatalf("error %v is not the API's JSON", err)
			}
			if body.Error.Code != tt.code || body.Error.Message["en"] == "" || body.Error.Message["zh-CN"] == "" {
				t.Errorf("error %s, want code %s in both languages", err, tt.code)
			}
			var api runner.APIError
			if !errors.As(err, &api) {
				t.Errorf("%T is not a runner.APIError", err)
			}
		})
	}
}

func TestApp_Language(t *testing.T) {
	before := i18n.Current()
	t.Cleanup(func() { i18n.SetLang(before) })
	for _, l := range []i18n.Lang{i18n.ZH, i18n.EN} {
		i18n.SetLang(l)
		if got := newApp(t, t.TempDir()).Language(); got != string(l) {
			t.Errorf("Language() = %q, want %q", got, l)
		}
	}
}

// TestApp_Memory: the memory methods list, pin and forget what a run wrote,
// and reject a memory that is not there with memory_not_found.
func TestApp_Memory(t *testing.T) {
	home := t.TempDir()
	db, err := store.Open(runner.StorePath(home))
	if err != nil {
		t.Fatal(err)
	}
	written, err := longterm.New(db).Remember([]longterm.Entry{{Kind: longterm.KindFact, Text: "The budget is 4,500.", RunID: "20261130-010000-aaaaaa"}}, time.Now())
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	a := newApp(t, home)
	id := written[0].ID
	entries, err := a.Memories(0)
	if err != nil || len(entries) != 1 || entries[0].ID != id {
		t.Fatalf("Memories = %+v, %v", entries, err)
	}
	if err := a.PinMemory(id, true); err != nil {
		t.Fatal(err)
	}
	if e, err := a.Memory(id); err != nil || !e.Pinned {
		t.Fatalf("Memory = %+v, %v", e, err)
	}
	if err := a.ForgetMemory(id); err != nil {
		t.Fatal(err)
	}
	var apiErr runner.APIError
	if err := a.ForgetMemory(id); !errors.As(err, &apiErr) || apiErr.Code != "memory_not_found" {
		t.Fatalf("forgetting it again: %v", err)
	}
}
