package remote_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"hermes/backend/homelock"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runner"
	"hermes/backend/server"
)

const testKey = "sk-test-5c0b7e2f9a1d4e6b8c3f2a1d0e9b8c7a"

// owner is a process that owns a home: its runner behind its local API,
// with hermes.lock written.
type owner struct {
	home, ws string
	runs     *runner.Manager
	lock     homelock.Lock
	// exit stops the owner as its process would on exit; it runs once.
	exit func()
}

// newOwner makes this test the owner of a fresh home whose model is srv.
func newOwner(t *testing.T, srv *llmtest.Server) *owner {
	t.Helper()
	return newOwnerOf(t, srv, "", runner.Options{})
}

// newOwnerOf is newOwner with more of hermes.toml after its [agent]
// section, and the runner's options ro (its home and key are the owner's).
func newOwnerOf(t *testing.T, srv *llmtest.Server, more string, ro runner.Options) *owner {
	t.Helper()
	o := &owner{home: t.TempDir(), ws: t.TempDir()}
	// The scripts answer the loop's turns one by one: no planning or
	// routing calls in between.
	toml := fmt.Sprintf("[model]\nbase_url = %q\nmodel = \"test-model\"\nmax_retries = 0\n\n[agent]\nworkspace = %q\nstrategy = \"react\"\nroute = false\n", srv.URL, o.ws) + more
	if err := os.WriteFile(filepath.Join(o.home, "hermes.toml"), []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	ro.Home = o.home
	ro.Getenv = func(k string) string {
		if k == "OPENAI_API_KEY" {
			return testKey
		}
		return ""
	}
	o.runs = runner.New(ro)
	hs := httptest.NewUnstartedServer(nil)
	own, err := homelock.Claim(t.Context(), o.home, homelock.Lock{Addr: hs.Listener.Addr().String(), Token: homelock.NewToken(), Mode: homelock.ModeServe})
	if err != nil {
		t.Fatal(err)
	}
	o.lock = own.Lock
	hs.Config.Handler = server.New(server.Options{Runs: o.runs, Token: o.lock.Token, Owner: &o.lock})
	hs.Start()
	o.exit = sync.OnceFunc(func() {
		if err := o.runs.Shutdown(context.Background()); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		hs.CloseClientConnections()
		hs.Close()
		own.Release()
	})
	t.Cleanup(o.exit)
	return o
}
