package toolbox

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// everythingServer is the reference MCP server from the npm registry, which
// scripts/setup.sh installs with npm ci in tests/mcp.
func everythingServer(t *testing.T) MCPSpec {
	t.Helper()
	requireNode(t)
	_, file, _, _ := runtime.Caller(0)
	script := filepath.Join(filepath.Dir(file), "..", "..", "tests", "mcp", "node_modules",
		"@modelcontextprotocol", "server-everything", "dist", "index.js")
	if _, err := os.Stat(script); err != nil {
		t.Fatalf("the MCP test server is not installed (%v); run scripts/setup.sh, or npm ci in tests/mcp", err)
	}
	return MCPSpec{Command: "node", Args: []string{script, "stdio"}, Risk: RiskRead}
}

func TestMCP_ListAndCallThroughASkill(t *testing.T) {
	spec := everythingServer(t)
	c := Load(t.Context(), Options{MCP: []NamedMCP{{Name: "everything", Spec: spec}}})
	defer c.Close()
	s := findSkill(t, c.Skills(), "everything")
	if s.Status != StatusLoaded || s.Runner != RunnerMCP {
		t.Fatalf("skill %+v", s)
	}
	for _, want := range []string{"everything_echo", "everything_get-sum"} {
		if _, ok := c.Registry().Get(want); !ok {
			t.Fatalf("tool %s not listed; tools: %v (problem %v)", want, s.Tools, s.Problem)
		}
	}
	echo, _ := c.Registry().Get("everything_echo")
	if echo.Risk != RiskRead || !strings.Contains(echo.Description, "Echo") {
		t.Errorf("echo tool %+v", echo)
	}

	call := func(name, args string) (string, error) {
		t.Helper()
		prep, err := c.Registry().Prepare(name, args)
		if err != nil {
			t.Fatal(err)
		}
		return prep.Tool.Run(t.Context(), Env{}, prep.Args)
	}
	if out, err := call("everything_echo", `{"message":"你好 hermes"}`); err != nil || out != "Echo: 你好 hermes" {
		t.Fatalf("echo: %q, %v", out, err)
	}
	// Prepare coerces the model's string numbers to the server's schema.
	if out, err := call("everything_get-sum", `{"a":"2","b":3}`); err != nil || !strings.Contains(out, "5") {
		t.Fatalf("get-sum: %q, %v", out, err)
	}

	// The server dies: the next call starts it again and says so.
	srv := c.servers[func() string {
		for k := range c.servers {
			return k
		}
		return ""
	}()]
	srv.mu.Lock()
	ended := srv.ended
	if err := srv.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	srv.mu.Unlock()
	<-ended
	out, err := call("everything_echo", `{"message":"again"}`)
	if err != nil || !strings.Contains(out, "Echo: again") || !strings.Contains(out, "stopped") {
		t.Fatalf("after the server died: %q, %v", out, err)
	}
}

func TestMCP_ServerThatCannotStartIsReported(t *testing.T) {
	c := Load(t.Context(), Options{MCP: []NamedMCP{{Name: "ghost", Spec: MCPSpec{Command: filepath.Join(t.TempDir(), "no-such-server")}}}})
	defer c.Close()
	s := findSkill(t, c.Skills(), "ghost")
	if s.Status != StatusBroken || s.Problem == nil || !strings.Contains(s.Problem.Error(), "ghost") {
		t.Fatalf("skill %+v", s)
	}
}
