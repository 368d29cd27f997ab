package config

import (
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

func TestRedacted(t *testing.T) {
	c := Default()
	c.Model.APIKey = "sk-live-secret"
	c.Model.APIKeyEnv = "DEEPSEEK_API_KEY"
	c.Tools.MCP = []MCPServer{{Name: "gh", Command: "gh-mcp", Env: map[string]string{"GITHUB_TOKEN": "ghp-secret", "LOG_LEVEL": "warn"}}}
	c.Model.Endpoints = []Endpoint{{BaseURL: "https://gw.example/v1", APIKey: "sk-endpoint-secret"}}
	out, err := toml.Marshal(c.Redacted())
	if err != nil {
		t.Fatal(err)
	}
	text := string(out)
	for _, secret := range []string{"sk-live-secret", "ghp-secret", "sk-endpoint-secret"} {
		if strings.Contains(text, secret) {
			t.Errorf("the redacted config shows %s:\n%s", secret, text)
		}
	}
	for _, kept := range []string{"DEEPSEEK_API_KEY", "warn", "gpt-4o-mini", "https://gw.example/v1"} {
		if !strings.Contains(text, kept) {
			t.Errorf("the redacted config lost %s", kept)
		}
	}
	if c.Model.APIKey != "sk-live-secret" || c.Tools.MCP[0].Env["GITHUB_TOKEN"] != "ghp-secret" || c.Model.Endpoints[0].APIKey != "sk-endpoint-secret" {
		t.Fatal("Redacted changed the config it was called on")
	}
}

func TestIsSecret(t *testing.T) {
	for name, want := range map[string]bool{
		"api_key": true, "secret": true, "webhook_secret": true, "encoding_aes_key": true, "token": true,
		"api_key_env": false, "public_key": false, "model": false, "max_tokens": false,
	} {
		if isSecret(name) != want {
			t.Errorf("isSecret(%q) = %v", name, !want)
		}
	}
}
