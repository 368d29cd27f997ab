//go:build linux

package notify

import (
	"fmt"
	"sync"

	"github.com/godbus/dbus/v5"

	"hermes/backend/i18n"
)

// The freedesktop notification service (Desktop Notifications
// Specification 1.2), which GNOME, KDE, Xfce and the notification daemons
// of other desktops provide on the session bus.
const (
	busName   = "org.freedesktop.Notifications"
	busPath   = dbus.ObjectPath("/org/freedesktop/Notifications")
	busNotify = busName + ".Notify"
	// actionDefault is the action a click on the notification's body
	// invokes.
	actionDefault = "default"
)

// busNotifier sends notes over the session bus and hears their clicks.
type busNotifier struct {
	conn    *dbus.Conn
	app     string
	signals chan *dbus.Signal
	clicks  chan string
	done    chan struct{}

	mu     sync.Mutex
	byID   map[uint32]string // notification id → run id, until it closes
	latest map[string]uint32 // run id → its notification shown now
	closed bool
}

// New connects to the session bus. A notification service that starts
// later (a desktop's daemon is often started on the first call) is found
// by the first Send. app is the application's name the notifications
// carry.
func New(app string) (Notifier, error) {
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoService, err)
	}
	if err := conn.AddMatchSignal(dbus.WithMatchInterface(busName), dbus.WithMatchObjectPath(busPath)); err != nil {
		_ = conn.Close()
		return nil, fmt.Errorf("%w: %w", ErrNoService, err)
	}
	n := &busNotifier{
		conn: conn, app: app,
		signals: make(chan *dbus.Signal, 16), clicks: make(chan string, 16), done: make(chan struct{}),
		byID: map[uint32]string{}, latest: map[string]uint32{},
	}
	conn.Signal(n.signals)
	go n.listen()
	return n, nil
}

func (n *busNotifier) Send(note Note) error {
	n.mu.Lock()
	replaces := n.latest[note.RunID]
	n.mu.Unlock()
	actions := []string{actionDefault, i18n.T("notify.action.open")}
	hints := map[string]dbus.Variant{
		"category":      dbus.MakeVariant("im.received"),
		"desktop-entry": dbus.MakeVariant("hermes"),
	}
	var id uint32
	err := n.conn.Object(busName, busPath).Call(busNotify, 0,
		n.app, replaces, "hermes", note.Title, note.Body, actions, hints, int32(-1)).Store(&id)
	if err != nil {
		return fmt.Errorf("send a desktop notification: %w", err)
	}
	n.mu.Lock()
	delete(n.byID, replaces)
	n.byID[id] = note.RunID
	n.latest[note.RunID] = id
	n.mu.Unlock()
	return nil
}

// listen hands each click on a note of this process to Clicks, and forgets
// the notes that closed.
func (n *busNotifier) listen() {
	defer close(n.clicks)
	for {
		select {
		case s, ok := <-n.signals:
			if !ok {
				return
			}
			n.signal(s)
		case <-n.done:
			return
		}
	}
}

func (n *busNotifier) signal(s *dbus.Signal) {
	if len(s.Body) < 2 {
		return
	}
	id, ok := s.Body[0].(uint32)
	if !ok {
		return
	}
	n.mu.Lock()
	run, mine := n.byID[id]
	n.mu.Unlock()
	if !mine {
		return // another application's, or one this process forgot
	}
	switch s.Name {
	case busName + ".ActionInvoked":
		if action, _ := s.Body[1].(string); action == actionDefault {
			select {
			case n.clicks <- run:
			case <-n.done:
			}
		}
	case busName + ".NotificationClosed":
		n.mu.Lock()
		delete(n.byID, id)
		if n.latest[run] == id {
			delete(n.latest, run)
		}
		n.mu.Unlock()
	}
}

func (n *busNotifier) Clicks() <-chan string { return n.clicks }

func (n *busNotifier) Close() error {
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		return nil
	}
	n.closed = true
	n.mu.Unlock()
	close(n.done)
	n.conn.RemoveSignal(n.signals)
	return n.conn.Close()
}
