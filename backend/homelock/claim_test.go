package homelock_test

import (
	"bufio"
	"errors"
	"io/fs"
	"net"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"hermes/backend/homelock"
	"hermes/backend/runner"
	"hermes/backend/server"
)

// killedOwner claims a home in a child process and kills it (SIGKILL), so
// the home keeps the lock of a process that is gone.
func killedOwner(t *testing.T, home string) homelock.Lock {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), exe)
	cmd.Env = append(os.Environ(), "HERMES_HOMELOCK_CLAIM="+home)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if line, _ := bufio.NewReader(out).ReadString('\n'); line != "claimed\n" {
		t.Fatalf("child: %q", line)
	}
	cmd.Process.Kill()
	cmd.Wait()
	l, err := homelock.ReadLock(home)
	if err != nil || l.PID != cmd.Process.Pid {
		t.Fatalf("the child's lock: %+v, %v", l, err)
	}
	return l
}

// closedAddr is a loopback address nothing listens on.
func closedAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

func writeLock(t *testing.T, home string, b []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(home, homelock.LockName), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestClaim(t *testing.T) {
	me := homelock.Lock{Addr: "127.0.0.1:7777", Token: "mine", Mode: homelock.ModeDesktop}
	tests := []struct {
		name string
		// setup leaves the home as the case needs it and returns the lock
		// that must still be there when Claim fails.
		setup func(t *testing.T, home string) []byte
		want  error // nil: this process takes the home
	}{
		{"no lock", func(*testing.T, string) []byte { return nil }, nil},
		{"stale lock of a killed process", func(t *testing.T, home string) []byte {
			killedOwner(t, home)
			return nil
		}, nil},
		{"lock that says nothing", func(t *testing.T, home string) []byte {
			writeLock(t, home, []byte("{\"pid\":"))
			return nil
		}, nil},
		{"live process that answers with a wrong token", func(t *testing.T, home string) []byte {
			// The parent of this test is alive; the address is a real
			// Hermes API with another token.
			real := homelock.Lock{PID: os.Getppid(), Token: "the real one", Mode: homelock.ModeServe}
			hs := httptest.NewServer(server.New(server.Options{Runs: runner.New(runner.Options{Home: t.TempDir()}), Token: real.Token, Owner: &real}))
			t.Cleanup(hs.Close)
			b := []byte(`{"pid":` + strconv.Itoa(os.Getppid()) + `,"addr":"` + hs.Listener.Addr().String() + `","token":"a guess","mode":"serve"}`)
			writeLock(t, home, b)
			return b
		}, homelock.ErrLockHeld},
		{"live process that does not answer", func(t *testing.T, home string) []byte {
			b := []byte(`{"pid":` + strconv.Itoa(os.Getppid()) + `,"addr":"` + closedAddr(t) + `","token":"t","mode":"bot"}`)
			writeLock(t, home, b)
			return b
		}, homelock.ErrLockHeld},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			kept := tt.setup(t, home)
			own, err := homelock.Claim(t.Context(), home, me)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Claim: %v, want %v", err, tt.want)
			}
			path := filepath.Join(home, homelock.LockName)
			if tt.want != nil {
				if b, _ := os.ReadFile(path); string(b) != string(kept) {
					t.Errorf("the lock changed: %s", b)
				}
				return
			}
			l, err := homelock.ReadLock(home)
			if err != nil || l.PID != os.Getpid() || l.Token != me.Token || l.Addr != me.Addr || l != own.Lock {
				t.Fatalf("lock %+v, %v; claimed %+v", l, err, own.Lock)
			}
			if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o600 {
				t.Errorf("lock mode %v, %v", info.Mode(), err)
			}
			entries, _ := os.ReadDir(home)
			if len(entries) != 1 {
				t.Errorf("the home holds more than the lock: %v", entries)
			}
			own.Release()
			if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the lock outlived Release: %v", err)
			}
		})
	}
}

func TestClaim_LiveOwnerIsAttachedTo(t *testing.T) {
	o := newOwner(t)
	_, err := homelock.Claim(t.Context(), o.home, homelock.Lock{Addr: "127.0.0.1:1", Token: "second", Mode: homelock.ModeDesktop})
	var owned *homelock.OwnedError
	if !errors.As(err, &owned) || !errors.Is(err, homelock.ErrOwned) || owned.Owner != o.lock {
		t.Fatalf("Claim: %v", err)
	}
	if l, err := homelock.Probe(t.Context(), o.home); err != nil || l != o.lock {
		t.Errorf("Probe: %+v, %v", l, err)
	}
	if l, err := homelock.ReadLock(o.home); err != nil || l != o.lock {
		t.Errorf("the owner's lock changed: %+v, %v", l, err)
	}
}

func TestProbe_NoLiveOwner(t *testing.T) {
	home := t.TempDir()
	if _, err := homelock.Probe(t.Context(), home); !errors.Is(err, homelock.ErrNotOwner) {
		t.Errorf("no lock: %v", err)
	}
	killedOwner(t, home)
	if _, err := homelock.Probe(t.Context(), home); !errors.Is(err, homelock.ErrNotOwner) {
		t.Errorf("stale lock: %v", err)
	}
}
