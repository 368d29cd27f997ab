package config

import (
	"slices"
	"testing"
)

func TestSecrets_EveryPlaceASecretCanBe(t *testing.T) {
	c := Default()
	c.Model.APIKey = "sk-in-the-file"
	c.Model.APIKeyEnv = "DEEPSEEK_API_KEY"
	c.Model.Endpoints = []Endpoint{
		{BaseURL: "https://a.example/v1", APIKey: "sk-endpoint-in-the-file"},
		{BaseURL: "https://b.example/v1", APIKeyEnv: "B_KEY"},
	}
	c.Tools.MCP = []MCPServer{{Name: "gh", Command: "gh-mcp", Env: map[string]string{"GITHUB_TOKEN": " ghp-token ", "LOG_LEVEL": "warn"}}}
	c.Bot = Bot{WebhookSecret: "whsec", EncodingAESKey: "aes-key", SecretEnv: "CORP_SECRET", CorpID: "corp-id"}
	env := map[string]string{
		"DEEPSEEK_API_KEY": "sk-deepseek", "B_KEY": "sk-b", "CORP_SECRET": "corp-secret",
		"OPENAI_API_KEY": "sk-openai", "UNRELATED": "not-a-secret",
	}
	got := c.Secrets(func(k string) string { return env[k] })
	want := []string{"sk-in-the-file", "sk-endpoint-in-the-file", "ghp-token", "whsec", "aes-key",
		"sk-openai", "sk-deepseek", "sk-b", "corp-secret"}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("Secrets = %q\nwant      %q", got, want)
	}
	vars := c.SecretVars()
	slices.Sort(vars)
	if want := []string{"B_KEY", "CORP_SECRET", "DEEPSEEK_API_KEY", "OPENAI_API_KEY"}; !slices.Equal(vars, want) {
		t.Fatalf("SecretVars = %q, want %q", vars, want)
	}
}

// TestSecrets_AResolvedConfig: a config whose references are resolved
// (the bot's) lists each secret once.
func TestSecrets_AResolvedConfig(t *testing.T) {
	c := Default()
	c.Bot.SecretEnv = "CORP_SECRET"
	getenv := func(k string) string { return map[string]string{"CORP_SECRET": "corp-secret"}[k] }
	if got := c.ResolveEnv(getenv).Secrets(getenv); !slices.Equal(got, []string{"corp-secret"}) {
		t.Fatalf("Secrets = %q", got)
	}
	if got := Default().Secrets(func(string) string { return "" }); len(got) != 0 {
		t.Fatalf("the defaults hold secrets: %q", got)
	}
}
