//go:build linux

package notify

import (
	"bufio"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godbus/dbus/v5"
)

// sessionBus starts a private dbus-daemon for the test and points
// DBUS_SESSION_BUS_ADDRESS at it.
func sessionBus(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("dbus-daemon"); err != nil {
		t.Fatal("these tests need dbus-daemon (Debian's dbus-daemon package; scripts/setup.sh installs it)")
	}
	addr := "unix:path=" + filepath.Join(t.TempDir(), "bus")
	cmd := exec.Command("dbus-daemon", "--session", "--nofork", "--nopidfile", "--address="+addr, "--print-address=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	// The daemon prints its address once it listens.
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("dbus-daemon did not start: %v", err)
	}
	got := strings.TrimSpace(line)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", got)
	return got
}

// notifyCall is one Notify call the stand-in server received.
type notifyCall struct {
	App, Icon, Summary, Body string
	Replaces                 uint32
	Actions                  []string
}

// standIn is a notification server on the bus that records each call and
// answers with ids 1, 2, ….
type standIn struct {
	conn  *dbus.Conn
	calls chan notifyCall
	next  uint32
}

func (s *standIn) Notify(app string, replaces uint32, icon, summary, body string, actions []string, _ map[string]dbus.Variant, _ int32) (uint32, *dbus.Error) {
	s.next++
	s.calls <- notifyCall{App: app, Replaces: replaces, Icon: icon, Summary: summary, Body: body, Actions: actions}
	return s.next, nil
}

func startStandIn(t *testing.T, addr string) *standIn {
	t.Helper()
	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	s := &standIn{conn: conn, calls: make(chan notifyCall, 8)}
	if err := conn.Export(s, busPath, busName); err != nil {
		t.Fatal(err)
	}
	reply, err := conn.RequestName(busName, dbus.NameFlagDoNotQueue)
	if err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("take %s: %v, %v", busName, reply, err)
	}
	return s
}

func (s *standIn) emit(t *testing.T, member string, args ...any) {
	t.Helper()
	if err := s.conn.Emit(busPath, busName+"."+member, args...); err != nil {
		t.Fatal(err)
	}
}

func TestBus_SendsTheNoteAndHearsItsClick(t *testing.T) {
	addr := sessionBus(t)
	server := startStandIn(t, addr)
	n, err := New("Hermes")
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()

	if err := n.Send(Note{RunID: "r1", Title: "Hermes — Summarise the notes", Body: "Waiting for your approval."}); err != nil {
		t.Fatal(err)
	}
	c := <-server.calls
	if c.App != "Hermes" || c.Summary != "Hermes — Summarise the notes" || c.Body != "Waiting for your approval." || c.Replaces != 0 {
		t.Fatalf("call = %+v", c)
	}
	if len(c.Actions) != 2 || c.Actions[0] != "default" {
		t.Fatalf("actions = %q; want the default action, so a click on the note is heard", c.Actions)
	}

	// A second note of the same run replaces the first.
	if err := n.Send(Note{RunID: "r1", Title: "Hermes — Summarise the notes", Body: "Finished."}); err != nil {
		t.Fatal(err)
	}
	if c := <-server.calls; c.Replaces != 1 {
		t.Fatalf("second note replaces %d; want 1", c.Replaces)
	}

	// Another application's click is not this process's; the click on the
	// note shown (id 2) is.
	server.emit(t, "ActionInvoked", uint32(99), "default")
	server.emit(t, "ActionInvoked", uint32(2), "default")
	if run := <-n.Clicks(); run != "r1" {
		t.Fatalf("clicked run = %q; want r1", run)
	}
}

func TestBus_SendFailsWithNoService(t *testing.T) {
	sessionBus(t)
	n, err := New("Hermes")
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	if err := n.Send(Note{RunID: "r1", Title: "t", Body: "b"}); err == nil {
		t.Fatal("a send with no notification service succeeded")
	}
}

func TestBus_NoSessionBus(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path="+filepath.Join(t.TempDir(), "none"))
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	if _, err := New("Hermes"); err == nil {
		t.Fatal("New without a session bus succeeded")
	}
}
