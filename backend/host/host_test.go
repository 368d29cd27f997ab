package host_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"testing"

	"hermes/backend/agent"
	"hermes/backend/config"
	"hermes/backend/event"
	"hermes/backend/homelock"
	"hermes/backend/host"
	"hermes/backend/llm/llmtest"
	"hermes/backend/remote"
	"hermes/backend/runapi"
	"hermes/backend/runner"
)

const testKey = "sk-test-7d1e4b2a9c3f5e6d8b0a1c2e3f4d5b6a"

func getenv(k string) string {
	if k == "OPENAI_API_KEY" {
		return testKey
	}
	return ""
}

// newHome is a home in t.TempDir whose model is srv, and a workspace.
func newHome(t *testing.T, srv *llmtest.Server) (home, ws string) {
	t.Helper()
	home, ws = t.TempDir(), t.TempDir()
	toml := fmt.Sprintf("[model]\nbase_url = %q\nmodel = \"test-model\"\nmax_retries = 0\n\n[agent]\nworkspace = %q\nstrategy = \"react\"\nroute = false\n", srv.URL, ws)
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	return home, ws
}

// open opens home and closes it when the test ends.
func open(t *testing.T, home string, mode host.Mode, o host.Options) *host.Host {
	t.Helper()
	if o.Getenv == nil {
		o.Getenv = getenv
	}
	h, err := host.Open(t.Context(), home, mode, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close(context.Background()) })
	return h
}

// drain returns every event a watcher gives until the run's leg is over.
func drain(w *runapi.Watcher) []event.Event {
	var all []event.Event
	for {
		events, more := w.Next()
		all = append(all, events...)
		if more == nil {
			return all
		}
		<-more
	}
}

// TestOpen_OwnerThenAttached: the first process to open a home owns it and
// names its local API in hermes.lock; the next attaches to it, and a run it
// starts runs in the owner. When the owner closes, the lock goes and the
// attached process hears that its owner is gone.
func TestOpen_OwnerThenAttached(t *testing.T) {
	home, _ := newHome(t, llmtest.NewServer(t, llmtest.Step{Content: "Done."}))
	owner := open(t, home, host.Serve, host.Options{})
	if !owner.Owns() || owner.Attached() != "" || owner.Notices() == nil {
		t.Fatalf("first process: owns %v, attached %q", owner.Owns(), owner.Attached())
	}
	lock, err := homelock.ReadLock(home)
	if err != nil || lock.Mode != host.Serve || lock.Token != owner.Token() || lock.PID != os.Getpid() {
		t.Fatalf("hermes.lock = %+v, %v", lock, err)
	}
	if _, err := homelock.Probe(t.Context(), home); err != nil {
		t.Fatalf("the lock's address does not answer: %v", err)
	}

	attached := open(t, home, host.Desktop, host.Options{})
	if attached.Owns() || attached.Attached() == "" || attached.Owner().Mode != host.Serve || attached.Notices() != nil {
		t.Fatalf("second process: owns %v, attached %q, owner %+v", attached.Owns(), attached.Attached(), attached.Owner())
	}
	id, err := attached.Runs().Start(t.Context(), runner.StartRequest{Task: "say done"})
	if err != nil {
		t.Fatal(err)
	}
	w, err := attached.Runs().Watch(id, 0)
	if err != nil {
		t.Fatal(err)
	}
	if events := drain(w); events[len(events)-1].Type != event.RunFinished {
		t.Fatalf("last event %s", events[len(events)-1].Type)
	}
	if live := owner.Manager().Live(); len(live) != 0 {
		t.Fatalf("still live in the owner: %+v", live)
	}
	runs, err := owner.Runs().List()
	if err != nil || len(runs) != 2 || runs[0].RunID != id || !runs[1].Sample {
		t.Fatalf("the owner's runs: %+v, %v", runs, err)
	}

	if err := owner.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	<-attached.Gone()
	if _, err := homelock.ReadLock(home); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("lock after close: %v", err)
	}
}

// TestAttach: a command that only steers the owner's runs attaches and
// never owns the home; with no owner it says so.
func TestAttach(t *testing.T) {
	home := t.TempDir()
	if _, err := host.Attach(t.Context(), home); !errors.Is(err, homelock.ErrNotOwner) {
		t.Fatalf("Attach with no owner = %v", err)
	}
	if _, err := os.Stat(homelock.LockPath(home)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Attach wrote a lock: %v", err)
	}
	open(t, home, host.Serve, host.Options{})
	h, err := host.Attach(t.Context(), home)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close(context.Background())
	if h.Owns() || h.Owner().Mode != host.Serve {
		t.Fatalf("owns %v, owner %+v", h.Owns(), h.Owner())
	}
	if _, err := h.Runs().List(); err != nil {
		t.Fatal(err)
	}
}

// TestOpen_MustOwn: the bot's mode refuses a home another process owns,
// and says which.
func TestOpen_MustOwn(t *testing.T) {
	home := t.TempDir()
	open(t, home, host.Desktop, host.Options{})
	_, err := host.Open(t.Context(), home, host.Bot, host.Options{MustOwn: true, HoldStore: true})
	var owned *homelock.OwnedError
	if !errors.As(err, &owned) || owned.Owner.Mode != host.Desktop {
		t.Fatalf("Open = %v", err)
	}
}

// TestOpen_ServesTheListenerToo: serve's --listen address on loopback is
// the lock's address; an attached serve serves the owner's runs on its
// own listener.
func TestOpen_ServesTheListenerToo(t *testing.T) {
	home := t.TempDir()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	owner := open(t, home, host.Serve, host.Options{Listener: ln})
	if owner.Owner().Addr != ln.Addr().String() {
		t.Fatalf("lock names %s, serve listens on %s", owner.Owner().Addr, ln.Addr())
	}
	ln2, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	second := open(t, home, host.Serve, host.Options{Listener: ln2})
	if second.Owns() {
		t.Fatal("second serve owns the home")
	}
	// The second serve answers on its own address, with its own token.
	c, err := remote.Dial(t.Context(), homelock.Lock{Addr: ln2.Addr().String(), Token: second.Token()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Shutdown(context.Background())
	if _, err := c.List(); err != nil {
		t.Fatal(err)
	}
}

// TestClose_CancelsRunsWhenGraceEnds: a run still going when the grace
// ends is cancelled, Close says so, and the home is let go of.
func TestClose_CancelsRunsWhenGraceEnds(t *testing.T) {
	hold := make(chan struct{})
	t.Cleanup(func() { close(hold) })
	home, _ := newHome(t, llmtest.NewServer(t, llmtest.Step{Content: "Thinking.", Wait: hold}))
	h := open(t, home, host.Run, host.Options{})
	sub := h.Runs().Bus().Subscribe(1024, nil)
	id, err := h.Runs().Start(t.Context(), runner.StartRequest{Task: "think"})
	if err != nil {
		t.Fatal(err)
	}
	for e := range sub.C {
		if e.RunID == id && e.Type == event.ContextBuilt {
			break
		}
	}
	w, err := h.Runs().Watch(id, 0)
	if err != nil {
		t.Fatal(err)
	}
	grace, cancel := context.WithCancel(context.Background())
	cancel()
	if err := h.Close(grace); !errors.Is(err, context.Canceled) {
		t.Fatalf("Close = %v", err)
	}
	if events := drain(w); events[len(events)-1].Type != event.RunFinished {
		t.Fatalf("last event %s", events[len(events)-1].Type)
	}
	if _, err := homelock.ReadLock(home); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("lock after close: %v", err)
	}
}

// TestOpen_OneWatcherForHermesToml: the owner follows hermes.toml with one
// watcher, whose edits reach OnConfig (the bot) and the notices (windows)
// alike; --vault's Adjust applies to the runs' config.
func TestOpen_OneWatcherForHermesToml(t *testing.T) {
	home := t.TempDir()
	path := config.Path(home)
	if err := os.WriteFile(path, []byte("[agent]\nmax_iterations = 5\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	heard := make(chan error, 4)
	h := open(t, home, host.Bot, host.Options{MustOwn: true, OnConfig: func(cfg config.Config, err error) {
		if err == nil && cfg.Agent.MaxIterations != 6 {
			err = fmt.Errorf("max_iterations %d", cfg.Agent.MaxIterations)
		}
		heard <- err
	}})
	feed := h.Notices().Watch()
	defer feed.Close()
	if err := os.WriteFile(path, []byte("[agent]\nmax_iterations = \"six\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := <-heard; err == nil {
		t.Fatal("a broken edit was heard as good")
	}
	<-feed.Ready()
	if n := feed.Take(); n[len(n)-1].Kind != runner.NoticeConfigError {
		t.Fatalf("notices %+v", n)
	}
	if err := os.WriteFile(path, []byte("[agent]\nmax_iterations = 6\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := <-heard; err != nil {
		t.Fatal(err)
	}
}

// TestControlCancel_CutsARunShort: the cancel control (a second Ctrl-C)
// cuts a live run short at once, through the owner and through a client.
func TestControlCancel_CutsARunShort(t *testing.T) {
	for _, attached := range []bool{false, true} {
		t.Run(fmt.Sprint("attached=", attached), func(t *testing.T) {
			hold := make(chan struct{})
			t.Cleanup(func() { close(hold) })
			srv := llmtest.NewServer(t, llmtest.Step{Content: "Thinking.", Wait: hold})
			home, _ := newHome(t, srv)
			h := open(t, home, host.Serve, host.Options{})
			runs := h.Runs()
			if attached {
				runs = open(t, home, host.Desktop, host.Options{}).Runs()
			}
			sub := h.Runs().Bus().Subscribe(1024, nil)
			id, err := runs.Start(t.Context(), runner.StartRequest{Task: "think"})
			if err != nil {
				t.Fatal(err)
			}
			for e := range sub.C {
				if e.RunID == id && e.Type == event.ContextBuilt {
					break
				}
			}
			w, err := runs.Watch(id, 0)
			if err != nil {
				t.Fatal(err)
			}
			if err := runs.Control(id, agent.Control{Kind: runner.ControlCancel}); err != nil {
				t.Fatal(err)
			}
			events := drain(w)
			if last := events[len(events)-1]; last.Type != event.RunFinished {
				t.Fatalf("last event %s", last.Type)
			}
		})
	}
}

// TestOpen_AdjustAppliesToEveryConfig: what Adjust changes (`hermes run
// --vault`) holds for the config the owner's runs get, before and after an
// edit of hermes.toml, and the file at ConfigPath is the one followed.
func TestOpen_AdjustAppliesToEveryConfig(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	path := filepath.Join(t.TempDir(), "other.toml")
	if err := os.WriteFile(path, []byte("[model]\nmodel = \"a\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A `hermes run` watches no file: each read takes hermes.toml as it is.
	h := open(t, home, host.Run, host.Options{ConfigPath: path, Adjust: func(c *config.Config) { c.Agent.Workspace = ws }})
	s, err := h.Runs().Settings()
	if err != nil || s.Workspace != ws || s.Model != "a" || s.ConfigPath != path {
		t.Fatalf("Settings = %+v, %v", s, err)
	}
	if err := os.WriteFile(path, []byte("[model]\nmodel = \"b\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err = h.Runs().Settings()
	if err != nil || s.Workspace != ws || s.Model != "b" {
		t.Fatalf("Settings after the edit = %+v, %v", s, err)
	}
}

// TestOpen_TokenOutlivesTheProcess: a process that opens the home again
// serves it with the same token, so that a browser let in stays in; a new
// token is asked for, and a `hermes run` that owns the home for its run
// keeps the home's file as it is.
func TestOpen_TokenOutlivesTheProcess(t *testing.T) {
	home, _ := newHome(t, llmtest.NewServer(t))
	first := open(t, home, host.Serve, host.Options{})
	tok := first.Token()
	if err := first.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	again := open(t, home, host.Serve, host.Options{})
	if again.Token() != tok {
		t.Fatalf("token after a restart %q, want %q", again.Token(), tok)
	}
	if lock, err := homelock.ReadLock(home); err != nil || lock.Token != tok {
		t.Fatalf("hermes.lock = %+v, %v", lock, err)
	}
	if err := again.Close(context.Background()); err != nil {
		t.Fatal(err)
	}

	run := open(t, home, host.Run, host.Options{})
	if run.Token() == tok {
		t.Fatal("a hermes run serves the home's token")
	}
	if err := run.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	renewed := open(t, home, host.Serve, host.Options{NewToken: true})
	if renewed.Token() == tok {
		t.Fatal("NewToken kept the old token")
	}
	if err := renewed.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if later := open(t, home, host.Desktop, host.Options{}); later.Token() != renewed.Token() {
		t.Fatalf("after NewToken, %q; want %q", later.Token(), renewed.Token())
	}
}
