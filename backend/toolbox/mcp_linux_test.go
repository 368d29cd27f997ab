//go:build linux && (amd64 || arm64)

package toolbox

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"hermes/backend/sandbox"
)

// An MCP server runs in the sandbox: its process has no new privileges and
// the seccomp filter, and its tools say they are confined.
func TestMCP_ServerRunsInTheSandbox(t *testing.T) {
	if st := (sandbox.Policy{Mode: sandbox.Workspace}).Status(); !st.Enforced {
		t.Skipf("no sandbox on this machine: %s", st.Why)
	}
	c := Load(t.Context(), Options{MCP: []NamedMCP{{Name: "everything", Spec: everythingServer(t)}}})
	defer c.Close()
	echo, ok := c.Registry().Get("everything_echo")
	if !ok {
		t.Fatal("the server's tools were not listed")
	}
	if got := echo.Confinement(Env{}, nil); got != Confined {
		t.Errorf("the server's tool says it runs %v", got)
	}
	var pid int
	for _, s := range c.servers {
		s.mu.Lock()
		pid = s.cmd.Process.Pid
		s.mu.Unlock()
	}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"NoNewPrivs:\t1", "Seccomp:\t2", "CapEff:\t0000000000000000"} {
		if !strings.Contains(string(status), want) {
			t.Errorf("the server's process lacks %q:\n%s", want, status)
		}
	}
}
