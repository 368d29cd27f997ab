package homelock_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"testing"

	"hermes/backend/homelock"
	"hermes/backend/runner"
	"hermes/backend/server"
)

// TestMain lets a test run a second process: with HERMES_HOMELOCK_CLAIM set
// to a home, the test binary claims it, says so, and waits to be killed.
func TestMain(m *testing.M) {
	if home := os.Getenv("HERMES_HOMELOCK_CLAIM"); home != "" {
		_, err := homelock.Claim(context.Background(), home, homelock.Lock{Addr: "127.0.0.1:1", Token: "child", Mode: homelock.ModeServe})
		if err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		fmt.Println("claimed")
		select {}
	}
	os.Exit(m.Run())
}

// owner is a process that owns a home: its local API answering, with
// hermes.lock written.
type owner struct {
	home string
	lock homelock.Lock
}

// newOwner makes this test the owner of a fresh home.
func newOwner(t *testing.T) *owner {
	t.Helper()
	o := &owner{home: t.TempDir()}
	hs := httptest.NewUnstartedServer(nil)
	own, err := homelock.Claim(t.Context(), o.home, homelock.Lock{Addr: hs.Listener.Addr().String(), Token: homelock.NewToken(), Mode: homelock.ModeServe})
	if err != nil {
		t.Fatal(err)
	}
	o.lock = own.Lock
	runs := runner.New(runner.Options{Home: o.home})
	hs.Config.Handler = server.New(server.Options{Runs: runs, Token: o.lock.Token, Owner: &o.lock})
	hs.Start()
	t.Cleanup(func() {
		_ = runs.Shutdown(context.Background())
		hs.CloseClientConnections()
		hs.Close()
		own.Release()
	})
	return o
}
