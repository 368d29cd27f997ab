package config

import (
	"strings"
	"testing"
)

func TestSameEndpoint(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		same bool
	}{
		{"https://api.openai.com/v1", "https://api.openai.com/v1/", true},
		{"https://api.openai.com/v1", "HTTPS://API.OpenAI.com:443/v1", true},
		{"http://127.0.0.1:11434/v1", "http://127.0.0.1:11434/v1", true},
		{"http://localhost/v1", "http://localhost:80/v1", true},
		{"https://api.openai.com/v1", "https://api.openai.com.evil.example/v1", false},
		{"https://api.openai.com/v1", "http://api.openai.com/v1", false},
		{"https://api.openai.com/v1", "https://api.openai.com:8443/v1", false},
		{"https://api.openai.com/v1", "https://api.openai.com/v2", false},
		{"", "", false},
		{"not a url", "not a url", false},
	} {
		if got := SameEndpoint(tt.a, tt.b); got != tt.same {
			t.Errorf("SameEndpoint(%q, %q) = %v", tt.a, tt.b, got)
		}
	}
}

func TestModelAt_TheKeyFollowsTheEndpoint(t *testing.T) {
	m := Model{BaseURL: "https://api.openai.com/v1", APIKey: "sk-configured", Endpoints: []Endpoint{
		{BaseURL: "https://api.deepseek.com/v1", APIKeyEnv: "DEEPSEEK_API_KEY"},
		{BaseURL: "https://gw.example/v1", APIKey: "sk-gateway"},
	}}
	env := map[string]string{"DEEPSEEK_API_KEY": "sk-deepseek", "OPENAI_BASE_URL": ""}
	getenv := func(k string) string { return env[k] }
	for _, tt := range []struct {
		name, baseURL, wantURL, wantKey string
		known                           bool
	}{
		{"the configured endpoint", "", "https://api.openai.com/v1", "sk-configured", true},
		{"the configured endpoint, named", "https://api.openai.com/v1/", "https://api.openai.com/v1", "sk-configured", true},
		{"an entry by its variable", "https://api.deepseek.com/v1", "https://api.deepseek.com/v1", "sk-deepseek", true},
		{"an entry by its key", "https://GW.example/v1/", "https://GW.example/v1/", "sk-gateway", true},
		{"a request's own endpoint", "https://collector.example/v1", "https://collector.example/v1", "", false},
		{"a local server", "http://127.0.0.1:11434/v1", "http://127.0.0.1:11434/v1", "", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, known := m.At(tt.baseURL, getenv)
			if got.BaseURL != tt.wantURL || got.APIKey != tt.wantKey || known != tt.known {
				t.Fatalf("At(%q) = %s, %q, %v", tt.baseURL, got.BaseURL, got.APIKey, known)
			}
		})
	}
	// OPENAI_BASE_URL moves the configured endpoint, and the key with it.
	env["OPENAI_BASE_URL"] = "https://proxy.example/v1"
	if got, _ := m.At("https://proxy.example/v1", getenv); got.APIKey != "sk-configured" {
		t.Fatalf("at OPENAI_BASE_URL the key is %q", got.APIKey)
	}
	if got, known := m.At("https://api.openai.com/v1", getenv); got.APIKey != "" || known {
		t.Fatalf("at base_url, which OPENAI_BASE_URL overrides, the key is %q", got.APIKey)
	}
}

func TestValidate_Endpoints(t *testing.T) {
	c := Default()
	c.Model.Endpoints = []Endpoint{
		{BaseURL: "api.deepseek.com"},
		{BaseURL: "https://a.example/v1"},
		{BaseURL: "https://A.example/v1/"},
	}
	c.Tools.MCP = []MCPServer{{Name: "gh", Command: "gh-mcp", PassEnv: []string{"GITHUB_TOKEN", "ghp secret"}}}
	err := c.Validate()
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{`entry 1 has base_url "api.deepseek.com"`, "lists https://A.example/v1/ twice", "entry 2 of pass_env"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error lacks %q: %v", want, err)
		}
	}
	if strings.Contains(err.Error(), "ghp secret") || strings.Contains(err.Error(), "entry 1 of pass_env") {
		t.Errorf("a good name is reported: %v", err)
	}
}
