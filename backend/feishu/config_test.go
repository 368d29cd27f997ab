package feishu_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hermes/backend/config"
	"hermes/backend/feishu"
	"hermes/backend/i18n"
)

func TestBot_FeishuLoadsItsKeysAndSecrets(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hermes.toml")
	src := `[bot]
platform = "feishu"
app_id = "cli_a1b2c3d4e5f6"
app_secret_env = "FEISHU_APP_SECRET"
verification_token = "verify-token-3c9e"
encrypt_key_env = "FEISHU_ENCRYPT_KEY"
`
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"FEISHU_APP_SECRET": "app-secret-77f1", "FEISHU_ENCRYPT_KEY": "encrypt-key-5d2a"}
	getenv := func(k string) string { return env[k] }
	b := cfg.ResolveEnv(getenv).Bot
	if k := config.BotKeys[feishu.Keys](b); k.AppID != "cli_a1b2c3d4e5f6" || k.AppSecret != "app-secret-77f1" || k.EncryptKey != "encrypt-key-5d2a" {
		t.Fatalf("keys not read, or secrets not resolved from the environment: %+v", k)
	}
	if k := config.BotKeys[feishu.Keys](cfg.Bot); k.AppSecret != "" {
		t.Fatal("ResolveEnv changed the config it was called on")
	}
	if err := errors.Join(cfg.Validate(), b.Ready()); err != nil {
		t.Fatalf("a complete feishu section: %v", err)
	}
	if b.API() != feishu.DefaultAPIBase {
		t.Fatalf("feishu's api_base defaults to %q, want %q", b.API(), feishu.DefaultAPIBase)
	}
	b.APIBase = feishu.LarkAPIBase + "/"
	if b.API() != feishu.LarkAPIBase {
		t.Fatalf("lark's api_base reads %q", b.API())
	}
	secrets := cfg.Secrets(getenv)
	for _, s := range []string{"app-secret-77f1", "encrypt-key-5d2a", "verify-token-3c9e"} {
		if !slices.Contains(secrets, s) {
			t.Errorf("Secrets lacks %q: %q", s, secrets)
		}
	}
	if k := config.BotKeys[feishu.Keys](cfg.Redacted().Bot); k.VerificationToken == "verify-token-3c9e" || k.AppID != "cli_a1b2c3d4e5f6" {
		t.Errorf("Redacted shows the verification token, or hides the app id: %+v", k)
	}
	if k := config.BotKeys[feishu.Keys](cfg.Bot); k.VerificationToken != "verify-token-3c9e" {
		t.Error("Redacted changed the config it was called on")
	}
}

func TestBot_FeishuSaysWhatToSet(t *testing.T) {
	b := config.WithBotKeys(config.Bot{Platform: feishu.Name}, feishu.Keys{AppID: "cli_x"})
	if err := (config.Config{Bot: b}).Validate(); err != nil && strings.Contains(err.Error(), "platform") {
		t.Fatalf("feishu is a platform: %v", err)
	}
	for _, lang := range []i18n.Lang{i18n.EN, i18n.ZH} {
		t.Run(string(lang), func(t *testing.T) {
			old := i18n.Current()
			i18n.SetLang(lang)
			defer i18n.SetLang(old)
			err := b.Ready()
			if !errors.Is(err, config.ErrInvalid) {
				t.Fatalf("Ready: %v", err)
			}
			msg := err.Error()
			for _, key := range []string{"app_secret", "verification_token"} {
				if !strings.Contains(msg, key) {
					t.Errorf("%s: no word of %s in %q", lang, key, msg)
				}
			}
			if strings.Contains(msg, "app_id ") {
				t.Errorf("app_id is set but reported: %q", msg)
			}
			where := map[i18n.Lang]string{i18n.EN: "Credentials & Basic Info", i18n.ZH: "凭证与基础信息"}[lang]
			if !strings.Contains(msg, where) {
				t.Errorf("%s: the error does not say where to find the value: %q", lang, msg)
			}
		})
	}
}
