package toolbox

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"hermes/backend/config"
)

// childRole makes the test binary a tool's process: "command" prints its
// environment as a command skill's result, "mcp" serves it as an MCP
// server's "env" tool.
const childRole = "HERMES_SKILLS_TEST_CHILD"

func TestMain(m *testing.M) {
	switch os.Getenv(childRole) {
	case "command":
		_ = json.NewEncoder(os.Stdout).Encode(map[string]string{"result": strings.Join(os.Environ(), "\n")})
		return
	case "mcp":
		s := mcp.NewServer(&mcp.Implementation{Name: "envmcp", Version: "1"}, nil)
		mcp.AddTool(s, &mcp.Tool{Name: "env", Description: "The server's environment."},
			func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Join(os.Environ(), "\n")}}}, nil, nil
			})
		_ = s.Run(context.Background(), &mcp.StdioTransport{})
		return
	}
	os.Exit(m.Run())
}

// TestOpen_ToolProcessesInheritNoSecret: command skills, execute_command
// and MCP servers start without any secret Hermes holds, by the variable's
// name or by its value, unless their manifest or [[tools.mcp]] asks for it
// by name with pass_env; then they get that one only.
func TestOpen_ToolProcessesInheritNoSecret(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("execute_command runs PowerShell there")
	}
	secrets := map[string]string{
		"OPENAI_API_KEY":   "sk-openai-in-the-environment",
		"DEEPSEEK_API_KEY": "sk-deepseek-the-model-key",
		"GATEWAY_KEY":      "sk-gateway-endpoint-key",
		"WECOM_SECRET":     "wecom-corp-secret-value",
		"COPY_OF_THE_KEY":  "sk-deepseek-the-model-key",                         // a secret by its value
		"DATABASE_URL":     "postgres://u:sk-gateway-endpoint-key@db.local/app", // a secret inside a value
	}
	for k, v := range secrets {
		t.Setenv(k, v)
	}
	t.Setenv("HARMLESS", "kept-as-it-is")
	cfg := config.Default()
	cfg.Model.APIKeyEnv = "DEEPSEEK_API_KEY"
	cfg.Model.Endpoints = []config.Endpoint{{BaseURL: "https://gw.example/v1", APIKeyEnv: "GATEWAY_KEY"}}
	cfg.Bot.WebhookSecretEnv = "WECOM_SECRET"
	cfg.Bot.WebhookSecret = "webhook-secret-in-the-file"
	t.Setenv("WEBHOOK_COPY", "webhook-secret-in-the-file")
	secrets["WEBHOOK_COPY"] = "webhook-secret-in-the-file"
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cfg.Tools.MCP = []config.MCPServer{{
		Name: "envmcp", Command: self, Risk: "read",
		Env: map[string]string{childRole: "mcp"}, PassEnv: []string{"WECOM_SECRET"},
	}}
	home := t.TempDir()
	manifest := func(name string, pass string) string {
		return `{"name": "` + name + `", "description": "Shows the environment.", "command": ["` + filepath.ToSlash(self) + `"],` + pass +
			` "tools": [{"name": "` + name + `", "description": "Use it to see the environment.", "risk": "read"}]}`
	}
	writeSkill(t, filepath.Join(home, "skills"), "envdump", map[string]string{"skill.json": manifest("envdump", "")})
	writeSkill(t, filepath.Join(home, "skills"), "envpass", map[string]string{"skill.json": manifest("envpass", ` "pass_env": ["GATEWAY_KEY"],`)})
	t.Setenv(childRole, "command")

	catalog, _ := Open(t.Context(), home, cfg, nil, nil)
	defer catalog.Close()
	call := func(name, args string) string {
		t.Helper()
		prep, err := catalog.Registry().Prepare(name, args)
		if err != nil {
			t.Fatalf("%s: %v (skills: %+v)", name, err, catalog.Skills())
		}
		out, err := prep.Tool.Run(t.Context(), Env{Workspace: home}, prep.Args)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return out
	}
	check := func(who, environ string, passed ...string) {
		t.Helper()
		if !strings.Contains(environ, "HARMLESS=kept-as-it-is") {
			t.Errorf("%s lost an ordinary variable:\n%s", who, environ)
		}
		for name, value := range secrets {
			if len(passed) > 0 && name == passed[0] {
				if !strings.Contains(environ, name+"="+value) {
					t.Errorf("%s was not given %s, which it asked for", who, name)
				}
				continue
			}
			if strings.Contains(environ, name+"=") {
				t.Errorf("%s inherited %s", who, name)
			}
		}
	}
	check("a command skill", call("envdump", "{}"))
	check("a command skill with pass_env", call("envpass", "{}"), "GATEWAY_KEY")
	check("execute_command", call("execute_command", `{"command":"env"}`))
	check("an MCP server", call("envmcp_env", "{}"), "WECOM_SECRET")
}
