package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestBot_LoadsWithEnvReferencesAndDefaults(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hermes.toml")
	src := `[bot]
platform = "wecom"
webhook_secret_env = "WECOM_TOKEN"
encoding_aes_key_env = "WECOM_AES_KEY"
corp_id = "ww0123456789abcdef"
secret_env = "WECOM_SECRET"
agent_id = 1000002
allow_tools = ["list_files"]
run_timeout = "10m"
`
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"WECOM_TOKEN": "tok", "WECOM_AES_KEY": strings.Repeat("k", 43), "WECOM_SECRET": "sec"}
	b := cfg.ResolveEnv(func(k string) string { return env[k] }).Bot
	if b.WebhookSecret != "tok" {
		t.Fatalf("secrets not resolved from the environment: %+v", b)
	}
	// WeCom's own keys are read with it (backend/wecom's test reads them
	// back): were one missing, Ready would say so.
	if err := b.Ready(); err != nil {
		t.Fatalf("Ready: %v", err)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	if b.ListenAddr() != DefaultBotListen || b.API() != "https://qyapi.weixin.qq.com" || b.RunLimit() != 10*time.Minute || b.APIRate() != DefaultBotRateLimit {
		t.Fatalf("defaults: listen %s api %s run limit %v rate %d", b.ListenAddr(), b.API(), b.RunLimit(), b.APIRate())
	}
}

func TestBot_UnknownKeyNamesTheClosest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hermes.toml")
	if err := os.WriteFile(path, []byte("[bot]\nencoding_aes_kye = \"x\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Load(path)
	if !errors.Is(err, ErrUnknownKey) || !strings.Contains(err.Error(), "encoding_aes_key") {
		t.Fatalf("error %v, want an unknown key naming encoding_aes_key", err)
	}
}

func TestBot_ValidateAndReady(t *testing.T) {
	cases := []struct {
		name  string
		bot   Bot
		ready bool // Ready, after validate passed
		want  string
	}{
		{"platform", Bot{Platform: "slack"}, false, `platform is "slack"`},
		{"api base", Bot{APIBase: "qyapi"}, false, "api_base"},
		{"path", Bot{Path: "callback"}, false, `must start with "/"`},
		{"negative rate", Bot{RateLimit: -1}, false, "rate_limit is -1"},
		{"wecom needs its keys", Bot{}, true, "corp_id is not set"},
		{"webhook needs a reply url", Bot{Platform: "webhook", WebhookSecret: "s"}, true, "reply_url is not set"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			if tc.ready {
				if err = tc.bot.validate(); err != nil {
					t.Fatalf("validate: %v", err)
				}
				err = tc.bot.Ready()
			} else {
				err = tc.bot.validate()
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "secret-but-short") {
				t.Fatal("the error shows the key")
			}
		})
	}
}
