// Command notifyserver is a stand-in freedesktop notification server for
// the desktop window's end-to-end checks (scripts/smoke-desktop-os.sh): it
// takes org.freedesktop.Notifications on the session bus
// (DBUS_SESSION_BUS_ADDRESS), writes each Notify call as a JSON line to
// FILE, and on SIGUSR1 clicks the last notification (the ActionInvoked
// signal of its "default" action), as a person would.
//
//	notifyserver FILE
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/godbus/dbus/v5"
)

const (
	name = "org.freedesktop.Notifications"
	path = dbus.ObjectPath("/org/freedesktop/Notifications")
)

// call is one Notify call as FILE gets it.
type call struct {
	ID       uint32   `json:"id"`
	App      string   `json:"app"`
	Replaces uint32   `json:"replaces"`
	Summary  string   `json:"summary"`
	Body     string   `json:"body"`
	Actions  []string `json:"actions"`
}

type server struct {
	mu   sync.Mutex
	out  *os.File
	last uint32
}

func (s *server) Notify(app string, replaces uint32, _, summary, body string, actions []string, _ map[string]dbus.Variant, _ int32) (uint32, *dbus.Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.last++
	line, _ := json.Marshal(call{ID: s.last, App: app, Replaces: replaces, Summary: summary, Body: body, Actions: actions})
	if _, err := s.out.Write(append(line, '\n')); err != nil {
		return 0, dbus.MakeFailedError(err)
	}
	return s.last, nil
}

func (s *server) GetCapabilities() ([]string, *dbus.Error) {
	return []string{"actions", "body"}, nil
}

func (s *server) CloseNotification(uint32) *dbus.Error { return nil }

func (s *server) GetServerInformation() (string, string, string, string, *dbus.Error) {
	return "notifyserver", "hermes", "1", "1.2", nil
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: notifyserver FILE")
		os.Exit(2)
	}
	out, err := os.OpenFile(os.Args[1], os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		fmt.Fprintln(os.Stderr, "notifyserver:", err)
		os.Exit(1)
	}
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		fmt.Fprintln(os.Stderr, "notifyserver:", err)
		os.Exit(1)
	}
	s := &server{out: out}
	if err := conn.Export(s, path, name); err != nil {
		fmt.Fprintln(os.Stderr, "notifyserver:", err)
		os.Exit(1)
	}
	if reply, err := conn.RequestName(name, dbus.NameFlagDoNotQueue); err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		fmt.Fprintln(os.Stderr, "notifyserver: the bus has a notification server already")
		os.Exit(1)
	}
	fmt.Println("ready")
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGUSR1, syscall.SIGTERM, os.Interrupt)
	for sig := range sigs {
		if sig != syscall.SIGUSR1 {
			return
		}
		s.mu.Lock()
		id := s.last
		s.mu.Unlock()
		if err := conn.Emit(path, name+".ActionInvoked", id, "default"); err != nil {
			fmt.Fprintln(os.Stderr, "notifyserver:", err)
		}
	}
}
