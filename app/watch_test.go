package app

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"hermes/backend/event"
	"hermes/backend/host"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runner"
)

// sent is one message a watch sent the window.
type sent struct {
	name string
	msg  watchMessage
}

// window records what is emitted to it, as the Wails runtime would carry it.
type window struct {
	mu   sync.Mutex
	all  []sent
	next chan sent
}

func newWindow() *window { return &window{next: make(chan sent, 1024)} }

func (w *window) emit(name string, data any) {
	m, ok := data.(watchMessage)
	if !ok || !strings.HasPrefix(name, watchPrefix) {
		return
	}
	w.mu.Lock()
	w.all = append(w.all, sent{name, m})
	w.mu.Unlock()
	w.next <- sent{name, m}
}

func (w *window) on(name string) []sent {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []sent
	for _, s := range w.all {
		if s.name == name {
			out = append(out, s)
		}
	}
	return out
}

// until reads what the window gets until a message on name satisfies done.
func (w *window) until(t *testing.T, name string, done func(watchMessage) bool) {
	t.Helper()
	for {
		select {
		case s := <-w.next:
			if s.name == name && done(s.msg) {
				return
			}
		case <-t.Context().Done():
			t.Fatalf("%s never got what it waited for", name)
		}
	}
}

func seqsOf(ms []sent) (seqs []int64, ends int) {
	for _, s := range ms {
		for _, e := range s.msg.Events {
			seqs = append(seqs, e.Seq)
		}
		if s.msg.End {
			ends++
		}
	}
	return seqs, ends
}

// TestApp_WatchRun: the window gets the events of the run it watches, on
// the watch's own name, from the seq it asks for, batched, with no gap, and
// then the end; an unwatched run sends nothing more; a run that is not live
// ends at once; an unknown run is refused.
func TestApp_WatchRun(t *testing.T) {
	hold := make(chan struct{})
	release := sync.OnceFunc(func() { close(hold) })
	t.Cleanup(release)
	srv := llmtest.NewServer(t, llmtest.Step{Content: "Done.", Wait: hold})
	home, ws := t.TempDir(), t.TempDir()
	toml := fmt.Sprintf("[model]\nbase_url = %q\nmodel = \"test-model\"\nmax_retries = 0\n\n[agent]\nworkspace = %q\nstrategy = \"react\"\nroute = false\n", srv.URL, ws)
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	h, err := host.Open(t.Context(), home, host.Desktop, host.Options{Getenv: func(k string) string {
		if k == "OPENAI_API_KEY" {
			return "sk-test-watch" // llmtest wants a key, any key
		}
		return ""
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close(context.Background()) })
	a := New(h)
	win := newWindow()
	a.watches.start(win.emit)
	t.Cleanup(a.watches.stopAll)

	ref, err := a.StartRun(runner.StartRequest{Task: "say done"})
	if err != nil {
		t.Fatal(err)
	}
	id := ref.RunID
	if err := a.WatchRun("w1", id, 0); err != nil {
		t.Fatal(err)
	}
	if err := a.WatchRun("w2", id, 0); err != nil {
		t.Fatal(err)
	}
	win.until(t, watchPrefix+"w2", func(m watchMessage) bool { return len(m.Events) > 0 })
	a.UnwatchRun("w2")
	stopped := len(win.on(watchPrefix + "w2"))

	release()
	win.until(t, watchPrefix+"w1", func(m watchMessage) bool { return m.End })
	events, err := a.RunEvents(id)
	if err != nil {
		t.Fatal(err)
	}
	got := win.on(watchPrefix + "w1")
	seqs, ends := seqsOf(got)
	if len(seqs) != len(events) || ends != 1 || !got[len(got)-1].msg.End {
		t.Fatalf("w1 got seqs %v and %d ends (last %+v), want the run's %d events then one end", seqs, ends, got[len(got)-1].msg, len(events))
	}
	for i, seq := range seqs {
		if seq != int64(i+1) {
			t.Fatalf("w1 got seqs %v: a gap or a repeat", seqs)
		}
	}
	if events[len(events)-1].Type != event.RunFinished {
		t.Fatalf("the run's last event is %s", events[len(events)-1].Type)
	}
	if n := len(win.on(watchPrefix + "w2")); n != stopped {
		t.Errorf("w2 got %d messages after UnwatchRun", n-stopped)
	}

	// A run that is not live: the events after the seq asked for, then the end.
	if err := a.WatchRun("w3", id, 2); err != nil {
		t.Fatal(err)
	}
	win.until(t, watchPrefix+"w3", func(m watchMessage) bool { return m.End })
	if seqs, ends := seqsOf(win.on(watchPrefix + "w3")); len(seqs) != len(events)-2 || seqs[0] != 3 || ends != 1 {
		t.Errorf("w3 got seqs %v and %d ends", seqs, ends)
	}

	err = a.WatchRun("w4", "20261130-000000-abcdef", 0)
	var body struct {
		Error struct{ Code string } `json:"error"`
	}
	if err == nil || json.Unmarshal([]byte(err.Error()), &body) != nil || body.Error.Code != "run_not_found" {
		t.Errorf("watching an unknown run: %v, want run_not_found", err)
	}
	if len(win.on(watchPrefix+"w4")) != 0 {
		t.Error("a refused watch sent something")
	}

	// A closed window watches nothing.
	a.watches.stopAll()
	if err := a.WatchRun("w5", id, 0); err == nil {
		t.Error("a closed window started a watch")
	}
}
