package cli_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"hermes/backend/agent/agenttest"
	"hermes/backend/cli"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runlog"
	"hermes/backend/telemetry/telemetrytest"
)

// TestRun_EncodedSecretsReachNoOne: a run whose tools read the API key and
// the bot's secret encoded every way a command prints them (base64 of an
// environment wrapped at 76, xxd -p, rev, URL-escaped) and a copy of
// hermes.toml sends none of them to the model, nor writes them to the run
// log or hermes.db, nor prints them with --json, nor exports them to the
// OTLP collector, where the results go with include_content.
func TestRun_EncodedSecretsReachNoOne(t *testing.T) {
	const botSecret = "corp-secret/with+url&chars=42" // its URL escapes differ from it
	rec := telemetrytest.NewHTTP(t)
	srv := llmtest.NewServer(t,
		llmtest.Step{ToolCalls: []llm.ToolCall{
			{ID: "c1", Name: "read_file", Arguments: `{"path":"dump.txt"}`},
			{ID: "c2", Name: "read_file", Arguments: `{"path":"settings.toml"}`},
		}},
		llmtest.Step{Content: "Done."},
	)
	home, ws := t.TempDir(), t.TempDir()
	toml := fmt.Sprintf("[agent]\nstrategy = \"react\"\nroute = false\n\n[bot]\ncorp_id = \"corp\"\nsecret = %q\n\n[telemetry]\notlp_endpoint = %q\ninclude_content = true\n", botSecret, rec.URL)
	files := map[string]string{
		filepath.Join(home, "hermes.toml"): toml,
		filepath.Join(ws, "settings.toml"): toml,
		filepath.Join(ws, "dump.txt"):      agenttest.Encodings(testKey) + agenttest.Encodings(botSecret),
	}
	for path, content := range files {
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	out := runHermes(t, "run", "--yes", "--json", "--home", home, "--base-url", srv.URL, "--workspace", ws, "what do these files hold?")
	if out.code != cli.ExitOK {
		t.Fatalf("exit %d\n%s", out.code, out.stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	var sent bytes.Buffer
	for _, m := range reqs[1].Messages {
		sent.WriteString(m.Content + "\n")
	}
	export := bytes.Join(rec.Raw(), nil)
	places := map[string][]byte{"the model's next request": sent.Bytes(), "--json": []byte(out.stdout), "stderr": []byte(out.stderr), "the OTLP export": export}
	for _, p := range []string{"hermes.db", "logs"} {
		err := filepath.WalkDir(filepath.Join(home, p), func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				places[path], err = os.ReadFile(path)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for where, text := range places {
		for _, secret := range []string{testKey, botSecret} {
			if leaks := agenttest.Leaks(text, secret); len(leaks) > 0 {
				t.Errorf("%s holds %.8s… as %q", where, secret, leaks)
			}
		}
	}
	for _, where := range []string{"the model's next request", "--json", "the OTLP export"} {
		if !bytes.Contains(places[where], []byte(runlog.Redacted)) {
			t.Errorf("%s holds no %s: the results did not reach it", where, runlog.Redacted)
		}
	}
}

// TestRun_MCPResultsReachTheModelRedacted: an MCP server's result goes to
// the model through the same redaction as any tool's: the reference
// server's get-env returns its environment, which holds the secret of its
// [[tools.mcp]] env table and a URL's password.
func TestRun_MCPResultsReachTheModelRedacted(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed; scripts/setup.sh installs it")
	}
	_, file, _, _ := runtime.Caller(0)
	script := filepath.Join(filepath.Dir(file), "..", "..", "tests", "mcp", "node_modules",
		"@modelcontextprotocol", "server-everything", "dist", "index.js")
	if _, err := os.Stat(script); err != nil {
		t.Fatalf("the MCP test server is not installed (%v); run scripts/setup.sh, or npm ci in tests/mcp", err)
	}
	const token, password = "ghp_mcp-env-token-0123456789", "mcp-url-password-42"
	srv := llmtest.NewServer(t,
		llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "c1", Name: "everything_get-env", Arguments: `{}`}}},
		llmtest.Step{Content: "Done."},
	)
	home := t.TempDir()
	toml := fmt.Sprintf("[agent]\nstrategy = \"react\"\nroute = false\n\n[[tools.mcp]]\nname = \"everything\"\ncommand = \"node\"\nargs = [%q, \"stdio\"]\n"+
		"env = { GITHUB_TOKEN = %q, SERVICE_URL = %q }\n", script, token, "https://svc:"+password+"@svc.example/")
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	out := runHermes(t, "run", "--yes", "--json", "--home", home, "--base-url", srv.URL, "--workspace", t.TempDir(), "what is the MCP server's environment?")
	if out.code != cli.ExitOK {
		t.Fatalf("exit %d\n%s", out.code, out.stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	var result string
	for _, m := range reqs[1].Messages {
		if m.Role == llm.RoleTool {
			result = m.Content
		}
	}
	if !strings.Contains(result, "GITHUB_TOKEN") || !strings.Contains(result, runlog.Redacted) {
		t.Fatalf("the MCP server's environment was not sent, redacted: %q", result)
	}
	for _, secret := range []string{token, password} {
		for where, text := range map[string]string{"the model's next request": result, "--json": out.stdout} {
			if leaks := agenttest.Leaks([]byte(text), secret); len(leaks) > 0 {
				t.Errorf("%s holds %.8s… as %q", where, secret, leaks)
			}
		}
	}
}
