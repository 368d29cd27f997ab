package host_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"testing"

	"hermes/backend/homelock"
	"hermes/backend/host"
)

// service answers every request and records what holds while the host
// stops it.
type service struct {
	url, home string
	// Whether, as it stopped, a request was still answered, the home still
	// held, and a grace given.
	answered, held, graced bool
}

func (s *service) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok")) })
}

func (s *service) Shutdown(grace context.Context) error {
	if resp, err := http.Get(s.url); err == nil {
		_ = resp.Body.Close() // only that it answered matters
		s.answered = true
	}
	_, err := homelock.ReadLock(s.home)
	s.held = err == nil
	_, s.graced = grace.Deadline()
	return errors.New("cut short")
}

// TestServe_StopsTheServiceFirst: Stop stops taking the service's requests,
// then stops the service with the runs' grace while the home is still
// held, and says when the service was cut short.
func TestServe_StopsTheServiceFirst(t *testing.T) {
	home := t.TempDir()
	h, err := host.Open(t.Context(), home, host.Bot, host.Options{MustOwn: true})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &service{url: "http://" + ln.Addr().String() + "/", home: home}
	h.Serve(ln, s)
	resp, err := http.Get(s.url)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if err := h.Stop(nil); err == nil || err.Error() != "cut short" {
		t.Fatalf("Stop = %v; want the service's error", err)
	}
	if s.answered || !s.held || !s.graced {
		t.Fatalf("while the service stopped: a request answered %v, the home held %v, a grace %v", s.answered, s.held, s.graced)
	}
	if _, err := homelock.ReadLock(home); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the lock after Stop: %v", err)
	}
}
