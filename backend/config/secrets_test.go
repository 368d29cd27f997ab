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
	c.Bot = loadBot(t, "webhook_secret = \"whsec\"\nencoding_aes_key = \"aes-key\"\nsecret_env = \"CORP_SECRET\"\ncorp_id = \"corp-id\"\n")
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
	c.Bot = loadBot(t, "secret_env = \"CORP_SECRET\"\n")
	getenv := func(k string) string { return map[string]string{"CORP_SECRET": "corp-secret"}[k] }
	if got := c.ResolveEnv(getenv).Secrets(getenv); !slices.Equal(got, []string{"corp-secret"}) {
		t.Fatalf("Secrets = %q", got)
	}
	if got := Default().Secrets(func(string) string { return "" }); len(got) != 0 {
		t.Fatalf("the defaults hold secrets: %q", got)
	}
}

// TestSecrets_EverySection: the secrets of every section are listed —
// [bot]'s (a platform's own keys': backend/feishu's test), [cluster]'s
// token, [telemetry]'s headers
// (and the credentials after a header's scheme) — and those a URL holds: its
// password, and a query parameter named as a secret (?api-key=, ?key=,
// ?access_token=) in base_url, OPENAI_BASE_URL, api_base or otlp_endpoint.
func TestSecrets_EverySection(t *testing.T) {
	c := Default()
	c.Model.BaseURL = "https://gw.example/v1?api-version=2024-06-01&api-key=gw-key-in-the-url"
	c.Model.Endpoints = []Endpoint{{BaseURL: "https://user:endpoint-password@b.example/v1"}}
	c.Bot = loadBot(t, `platform = "wecom"
corp_id = "ww_a1b2"
secret = "wecom-app-secret"
webhook_secret_env = "WECOM_TOKEN"
encoding_aes_key = "wecom-aes-key"
api_base = "https://hook.example/send?key=robot-key-0123&debug=verbose-mode"
`)
	c.Cluster = Cluster{NATSURL: "nats://n1:4222", NATSTokenEnv: "NATS_TOKEN"}
	c.Telemetry = Telemetry{OTLPEndpoint: "https://otel:collector-password@otel.example", HeadersEnv: map[string]string{"Authorization": "OTLP_AUTH"}}
	env := map[string]string{
		"WECOM_TOKEN": "wecom-callback-token", "NATS_TOKEN": "nats-cluster-token",
		"OTLP_AUTH": "Basic b3RscDpzZWNyZXQtY3JlZHM=", "OPENAI_BASE_URL": "https://env.example/v1?access_token=env-url-token",
	}
	got := c.Secrets(func(k string) string { return env[k] })
	for _, want := range []string{"gw-key-in-the-url", "endpoint-password", "wecom-app-secret", "wecom-callback-token",
		"wecom-aes-key", "robot-key-0123", "nats-cluster-token", "collector-password",
		"Basic b3RscDpzZWNyZXQtY3JlZHM=", "b3RscDpzZWNyZXQtY3JlZHM=", "env-url-token"} {
		if !slices.Contains(got, want) {
			t.Errorf("Secrets lacks %q: %q", want, got)
		}
	}
	for _, not := range []string{"2024-06-01", "verbose-mode", "ww_a1b2", "Basic"} {
		if slices.Contains(got, not) {
			t.Errorf("Secrets holds %q, which is no secret", not)
		}
	}
}

// loadBot is the [bot] section of a file whose [bot] is src: the
// platforms' own keys (WeCom's secret, say) are theirs, read as a file
// gives them.
func loadBot(t *testing.T, src string) Bot {
	t.Helper()
	cfg, err := Load(writeConfig(t, "[bot]\n"+src))
	if err != nil {
		t.Fatal(err)
	}
	return cfg.Bot
}
