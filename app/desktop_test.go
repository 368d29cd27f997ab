package app

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/desktoplink"
	"hermes/backend/event"
	"hermes/backend/host"
	"hermes/backend/notify"
)

func TestCheckLink_OnlyWebMailAndObsidian(t *testing.T) {
	for _, ok := range []string{"https://example.com/a?b=1", "http://example.com", "mailto:a@example.com", "obsidian://open?vault=v&file=Plan"} {
		if got, err := checkLink(ok); err != nil || got != ok {
			t.Errorf("checkLink(%q) = %q, %v; want it opened", ok, got, err)
		}
	}
	for _, bad := range []string{"file:///etc/passwd", "javascript:alert(1)", "/api/runs", "", "smb://host/share", "https://"} {
		if _, err := checkLink(bad); err == nil {
			t.Errorf("checkLink(%q) was opened", bad)
		} else if !strings.Contains(err.Error(), "copy") {
			t.Errorf("checkLink(%q): %v; want it to say what to do", bad, err)
		}
	}
}

func TestWindowTitle(t *testing.T) {
	cases := map[[2]string]string{
		{"", ""}: "Hermes",
		{"Summarise the notes · waiting for approval", ""}:      "Hermes — Summarise the notes · waiting for approval",
		{"", "attached to hermes bot (pid 7)"}:                  "Hermes — attached to hermes bot (pid 7)",
		{"Notes · running", "attached to hermes serve (pid 7)"}: "Hermes — Notes · running — attached to hermes serve (pid 7)",
	}
	for in, want := range cases {
		if got := WindowTitle(in[0], in[1]); got != want {
			t.Errorf("WindowTitle(%q, %q) = %q; want %q", in[0], in[1], got, want)
		}
	}
}

func TestFit_KeepsTheWindowOnItsScreen(t *testing.T) {
	cases := []struct {
		in     Place
		screen string
		want   Place
		ok     bool
	}{
		{Place{X: 100, Y: 50, Width: 1000, Height: 700}, "1920x1080", Place{X: 100, Y: 50, Width: 1000, Height: 700}, true},
		{Place{X: 1500, Y: 900, Width: 1000, Height: 700}, "1920x1080", Place{X: 920, Y: 380, Width: 1000, Height: 700}, true},
		{Place{X: -40, Y: -10, Width: 3000, Height: 2000}, "1280x800", Place{X: 0, Y: 0, Width: 1280, Height: 800}, true},
		{Place{X: 0, Y: 0, Width: 100, Height: 100}, "1280x800", Place{X: 0, Y: 0, Width: minWidth, Height: minHeight}, true},
		{Place{}, "1280x800", Place{}, false},
		{Place{Width: 800, Height: 600}, "wide", Place{}, false},
	}
	for _, c := range cases {
		got, ok := Fit(c.in, c.screen)
		if ok != c.ok || got != c.want {
			t.Errorf("Fit(%+v, %q) = %+v, %v; want %+v, %v", c.in, c.screen, got, ok, c.want, c.ok)
		}
	}
}

func TestPlaces_KeptPerScreen(t *testing.T) {
	home := t.TempDir()
	if w, h := FirstSize(home); w != 1280 || h != 800 {
		t.Fatalf("first size with none kept = %dx%d; want 1280x800", w, h)
	}
	p := ReadPlaces(home)
	p.Screens["1920x1080"] = Place{X: 10, Y: 20, Width: 1400, Height: 900, Page: "#/runs/r1"}
	p.Screens["1280x800"] = Place{Width: 900, Height: 600}
	p.Last = "1920x1080"
	if err := WritePlaces(home, p); err != nil {
		t.Fatal(err)
	}
	got := ReadPlaces(home)
	if got.Screens["1920x1080"].Page != "#/runs/r1" || got.Screens["1280x800"].Width != 900 {
		t.Fatalf("read %+v", got)
	}
	if w, h := FirstSize(home); w != 1400 || h != 900 {
		t.Fatalf("first size = %dx%d; want the last screen's 1400x900", w, h)
	}
	if err := os.WriteFile(placesFile(home), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := ReadPlaces(home); len(got.Screens) != 0 {
		t.Fatalf("a damaged file read as %+v; want none", got)
	}
}

func TestInVault(t *testing.T) {
	vault := t.TempDir()
	note := filepath.Join(vault, "Projects", "Plan.md")
	if err := os.MkdirAll(filepath.Dir(note), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(note, []byte("# Plan\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if rel, ok := inVault(vault, note); !ok || rel != "Projects/Plan.md" {
		t.Fatalf("inVault = %q, %v", rel, ok)
	}
	outside := filepath.Join(t.TempDir(), "x.md")
	for _, p := range []string{outside, vault, filepath.Join(vault, "..", "x.md")} {
		if rel, ok := inVault(vault, p); ok {
			t.Errorf("inVault(%q) = %q; want outside", p, rel)
		}
	}
}

// newTestApp opens home as the window does.
func newTestApp(t *testing.T, home string) *App {
	t.Helper()
	h, err := host.Open(t.Context(), home, host.Desktop, host.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close(context.Background()) })
	return New(h)
}

func TestDropped_FolderOrNoteOfTheVault(t *testing.T) {
	home, vault, ws := t.TempDir(), t.TempDir(), t.TempDir()
	note := filepath.Join(vault, "Plan.md")
	other := filepath.Join(ws, "README.md")
	for _, f := range []string{note, other} {
		if err := os.WriteFile(f, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	toml := "[obsidian]\nvault = '" + vault + "'\n"
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	a := newTestApp(t, home)
	if d, ok := a.dropped([]string{ws, note}); !ok || d != (Drop{Kind: "folder", Path: ws}) {
		t.Errorf("a folder dropped: %+v, %v", d, ok)
	}
	if d, ok := a.dropped([]string{note}); !ok || d.Kind != "note" || d.Note != "Plan.md" {
		t.Errorf("a note dropped: %+v, %v", d, ok)
	}
	for _, p := range [][]string{{other}, {filepath.Join(ws, "gone")}, nil} {
		if d, ok := a.dropped(p); ok {
			t.Errorf("%q dropped: %+v; want it ignored", p, d)
		}
	}
}

// fakeNotifier records the notes sent; clicks are sent by the test.
type fakeNotifier struct {
	sent   chan notify.Note
	clicks chan string
}

func (f *fakeNotifier) Send(n notify.Note) error { f.sent <- n; return nil }
func (f *fakeNotifier) Clicks() <-chan string    { return f.clicks }
func (f *fakeNotifier) Close() error             { return nil }

func publish(t *testing.T, a *App, typ event.Type, run string, data any) {
	t.Helper()
	raw, err := json.Marshal(data)
	if err != nil {
		t.Fatal(err)
	}
	a.runs.Bus().Publish(event.Event{RunID: run, Type: typ, Data: raw})
}

func TestNotify_WhenTheWindowIsBehind(t *testing.T) {
	home := t.TempDir()
	a := newTestApp(t, home)
	f := &fakeNotifier{sent: make(chan notify.Note, 8), clicks: make(chan string)}
	newNotifier = func() (notify.Notifier, error) { return f, nil }
	t.Cleanup(func() { newNotifier = func() (notify.Notifier, error) { return notify.New("Hermes") } })
	shown := make(chan string, 1)
	decided := make(chan bool, 8)
	a.desk.decided = func(_ event.Event, told bool) { decided <- told }
	a.desk.focused.Store(true)
	a.startNotify(t.Context(), func(id string) { shown <- id })
	defer a.StopDesktop(t.Context())

	publish(t, a, event.RunStarted, "r1", event.RunStartedData{Task: "Summarise the notes"})
	<-decided
	// In front, the window says it itself.
	publish(t, a, event.ApprovalRequested, "r1", event.ApprovalRequestedData{ApprovalID: "a1", Name: "execute_command"})
	if <-decided {
		t.Fatal("an approval asked while the window is in front is to be told")
	}
	a.WindowFocused(false)
	publish(t, a, event.QuestionAsked, "r1", event.QuestionAskedData{QuestionID: "q1", Question: "Which folder?"})
	<-decided
	n := <-f.sent
	if n.RunID != "r1" || n.Title != "Hermes — Summarise the notes" || !strings.Contains(n.Body, "Which folder?") {
		t.Fatalf("first note = %+v; want the question of r1 (none for the approval asked while in front)", n)
	}
	// Where a click comes back only as a link (a toast on Windows), the
	// link opens this home's window on the run.
	if h, id, ok := desktoplink.Parse(n.Link); !ok || h != home || id != "r1" {
		t.Fatalf("the note's link %q opens %q %q %v; want r1 of %s", n.Link, h, id, ok, home)
	}

	// A click shows the run.
	f.clicks <- "r1"
	if id := <-shown; id != "r1" {
		t.Fatalf("shown %q", id)
	}

	// [desktop] notify = false, read as it is now: no note.
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte("[desktop]\nnotify = false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	publish(t, a, event.RunFinished, "r1", event.RunFinishedData{Status: event.StatusFailed})
	if <-decided {
		t.Fatal("a note is to be sent while [desktop] notify is false")
	}
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte("[desktop]\nnotify = true\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	publish(t, a, event.RunFinished, "r2", event.RunFinishedData{Status: event.StatusGuard})
	if n := <-f.sent; n.RunID != "r2" || !strings.Contains(n.Body, "guard") {
		t.Fatalf("next note = %+v; want r2's guard (none while notify was off)", n)
	}
}

func TestLinkedRun_OnlyThisHomes(t *testing.T) {
	home, other := t.TempDir(), t.TempDir()
	args := []string{"--home", home, desktoplink.Run(other, "r-other"), desktoplink.Run(home, "r1")}
	if id, ok := linkedRun(args, home); !ok || id != "r1" {
		t.Fatalf("linkedRun = %q %v, want r1", id, ok)
	}
	for _, args := range [][]string{nil, {"--home", home}, {desktoplink.Run(other, "r-other")}, {"hermes://run/r1"}} {
		if id, ok := linkedRun(args, home); ok {
			t.Errorf("linkedRun(%q) = %q; want none", args, id)
		}
	}
}

func TestOpenRun_IsTheFirstPageOnce(t *testing.T) {
	a := newTestApp(t, t.TempDir())
	a.OpenRun("20261205-090000-11c0de")
	// A screen the page could not name: the window is not placed, and the
	// run is still the page to open on.
	if page, err := a.PlaceWindow("unknown"); err != nil || page != "#/runs/20261205-090000-11c0de" {
		t.Fatalf("first page %q %v", page, err)
	}
	if page, _ := a.PlaceWindow("unknown"); page != "" {
		t.Fatalf("the link's run is the first page again: %q", page)
	}
}
