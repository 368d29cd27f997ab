package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hermes/backend/i18n"
)

// watched is a Watch on a temp dir whose callbacks land on channels.
type watched struct {
	path    string
	changes chan Config
	errs    chan error
}

func startWatch(t *testing.T, initial string) *watched {
	t.Helper()
	w := &watched{path: writeConfig(t, initial), changes: make(chan Config, 16), errs: make(chan error, 16)}
	err := Watch(t.Context(), w.path, func(c Config) { w.changes <- c }, func(err error) { w.errs <- err })
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// deadline bounds a wait for a callback; the waits themselves are on the
// callbacks, so a passing test takes the settle time and no more.
const deadline = 10 * time.Second

func (w *watched) change(t *testing.T) Config {
	t.Helper()
	select {
	case c := <-w.changes:
		return c
	case err := <-w.errs:
		t.Fatalf("want a change, got an error: %v", err)
	case <-time.After(deadline):
		t.Fatal("no change reported")
	}
	return Config{}
}

func (w *watched) failure(t *testing.T) error {
	t.Helper()
	select {
	case err := <-w.errs:
		return err
	case c := <-w.changes:
		t.Fatalf("want an error, got a change: %+v", c.Agent)
	case <-time.After(deadline):
		t.Fatal("no error reported")
	}
	return nil
}

func TestWatch(t *testing.T) {
	i18n.SetLang(i18n.EN)
	w := startWatch(t, "[agent]\nmax_iterations = 10\n")
	write := func(content string) {
		t.Helper()
		if err := os.WriteFile(w.path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// Editors save by writing another file and renaming it over the config.
	saveByRename := func(content string) {
		t.Helper()
		tmp := filepath.Join(filepath.Dir(w.path), ".hermes.toml.swp")
		if err := os.WriteFile(tmp, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, w.path); err != nil {
			t.Fatal(err)
		}
	}

	write("[agent]\nmax_iterations = 20\n")
	if c := w.change(t); c.Agent.MaxIterations != 20 {
		t.Fatalf("max_iterations = %d after an edit to 20", c.Agent.MaxIterations)
	}

	saveByRename("[agent]\nmax_iterations = 30\n")
	if c := w.change(t); c.Agent.MaxIterations != 30 {
		t.Fatalf("max_iterations = %d after a save by rename", c.Agent.MaxIterations)
	}

	write("[agent]\nmax_iterations = 30\nmax_iteratons = 4\n")
	if err := w.failure(t); !errors.Is(err, ErrUnknownKey) || !strings.Contains(err.Error(), "line 3") {
		t.Fatalf("broken edit reported as %v", err)
	}

	write("[agent]\nmax_iterations = 0\n")
	if err := w.failure(t); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), w.path) {
		t.Fatalf("out-of-range edit reported as %v", err)
	}

	// Back to the last good values: the fix is news after an error.
	saveByRename("[agent]\nmax_iterations = 30\n")
	if c := w.change(t); c.Agent.MaxIterations != 30 {
		t.Fatalf("max_iterations = %d after the fix", c.Agent.MaxIterations)
	}

	// A burst of writes is read once it settles, as its last state.
	for n := 41; n <= 45; n++ {
		write(fmt.Sprintf("[agent]\nmax_iterations = %d\n", n))
	}
	for c := w.change(t); c.Agent.MaxIterations != 45; c = w.change(t) {
		if c.Agent.MaxIterations < 41 || c.Agent.MaxIterations > 45 {
			t.Fatalf("max_iterations = %d during a burst", c.Agent.MaxIterations)
		}
	}

	if err := os.Remove(w.path); err != nil {
		t.Fatal(err)
	}
	if err := w.failure(t); !errors.Is(err, ErrRemoved) {
		t.Fatalf("removal reported as %v", err)
	}
	write("[agent]\nmax_iterations = 45\n")
	if c := w.change(t); c.Agent.MaxIterations != 45 {
		t.Fatalf("max_iterations = %d after the file came back", c.Agent.MaxIterations)
	}
}

// TestWatcher_Reload drives one reading after a burst directly, without
// the file system's events: what is news and what is not.
func TestWatcher_Reload(t *testing.T) {
	good := "[agent]\nmax_iterations = 10\n"
	tests := []struct {
		name     string
		broken   bool // the reading before failed
		content  string
		changes  int
		failures int
	}{
		{"a save without a change", false, good, 0, 0},
		{"a change", false, "[agent]\nmax_iterations = 11\n", 1, 0},
		{"the same values after a broken edit", true, good, 1, 0},
		{"a broken edit", false, "[agent\n", 0, 1},
		{"an out-of-range value", false, "[model]\nmax_retries = -1\n", 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeConfig(t, good)
			last, err := Load(path)
			if err != nil {
				t.Fatal(err)
			}
			var changes, failures int
			w := &watcher{path: path, last: last, broken: tt.broken,
				onChange: func(Config) { changes++ }, onError: func(error) { failures++ }}
			if err := os.WriteFile(path, []byte(tt.content), 0o600); err != nil {
				t.Fatal(err)
			}
			w.reload()
			if changes != tt.changes || failures != tt.failures {
				t.Fatalf("%d changes and %d errors, want %d and %d", changes, failures, tt.changes, tt.failures)
			}
			if tt.failures > 0 && w.last.Agent.MaxIterations != 10 {
				t.Fatal("the last good config was not kept")
			}
		})
	}
}

func TestWatch_MissingDirectory(t *testing.T) {
	err := Watch(t.Context(), filepath.Join(t.TempDir(), "gone", "hermes.toml"), func(Config) {}, func(error) {})
	if err == nil {
		t.Fatal("a watch on a missing directory must fail at once")
	}
}
