package wecom_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hermes/backend/config"
	"hermes/backend/i18n"
	"hermes/backend/wecom"
)

// TestBot_WeComKeysLoadWhereUsersHaveThem: a hermes.toml written before
// WeCom registered its own keys, with them in [bot] beside the others,
// loads as it did: the keys are WeCom's, their environment references
// resolved, their secrets known and starred out, and a change of one needs
// a restart.
func TestBot_WeComKeysLoadWhereUsersHaveThem(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hermes.toml")
	src := `[bot]
platform = "wecom"
webhook_secret_env = "WECOM_TOKEN"
encoding_aes_key_env = "WECOM_AES_KEY"
corp_id = "ww0123456789abcdef"
secret_env = "WECOM_SECRET"
agent_id = 1000002
rate_limit = 30
allow_departments = [2, "研发部"]
`
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"WECOM_TOKEN": testToken, "WECOM_AES_KEY": testAESKey, "WECOM_SECRET": testSecret}
	getenv := func(k string) string { return env[k] }
	b := cfg.ResolveEnv(getenv).Bot
	k := config.BotKeys[wecom.Keys](b)
	if k.CorpID != "ww0123456789abcdef" || k.AgentID != 1000002 || k.Secret != testSecret || k.EncodingAESKey != testAESKey || b.WebhookSecret != testToken {
		t.Fatalf("keys not read, or secrets not resolved from the environment: %+v, webhook_secret %q", k, b.WebhookSecret)
	}
	if k.UserRate() != wecom.DefaultUserRateLimit || b.APIRate() != 30 || len(b.AllowDepartments) != 2 {
		t.Fatalf("user rate %d, rate %d, departments %q", k.UserRate(), b.APIRate(), b.AllowDepartments)
	}
	if err := errors.Join(cfg.Validate(), b.Ready()); err != nil {
		t.Fatalf("a complete wecom section: %v", err)
	}
	secrets := cfg.Secrets(getenv)
	for _, s := range []string{testToken, testAESKey, testSecret} {
		if !slices.Contains(secrets, s) {
			t.Errorf("Secrets lacks %.6s…", s)
		}
	}
	if vars := cfg.SecretVars(); !slices.Contains(vars, "WECOM_SECRET") || !slices.Contains(vars, "WECOM_AES_KEY") {
		t.Errorf("SecretVars = %q", vars)
	}
	shown, err := config.Marshal(cfg.ResolveEnv(getenv).Redacted())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(shown), testSecret) || strings.Contains(string(shown), testAESKey) || !strings.Contains(string(shown), `corp_id = "ww0123456789abcdef"`) {
		t.Errorf("[bot] as shown holds a secret, or lacks corp_id:\n%s", shown)
	}
	other := k
	other.CorpID = "ww_other"
	next := config.WithBotKeys(b, other)
	if got := b.ChangedKeys(next); !slices.Equal(got, []string{"corp_id"}) {
		t.Errorf("ChangedKeys = %q; want corp_id, which needs a restart", got)
	}
}

// TestBot_WeComSaysWhatIsWrong: WeCom's keys are checked with the others,
// in both languages, and the AES key itself is never shown.
func TestBot_WeComSaysWhatIsWrong(t *testing.T) {
	cases := []struct {
		name string
		bot  config.Bot
		want map[i18n.Lang]string
	}{
		{"a short aes key", config.WithBotKeys(config.Bot{}, wecom.Keys{EncodingAESKey: "secret-but-short"}),
			map[i18n.Lang]string{i18n.EN: "has 16 characters but must have 43", i18n.ZH: "有 16 个字符"}},
		{"a negative user rate", config.WithBotKeys(config.Bot{}, wecom.Keys{UserRateLimit: -1}),
			map[i18n.Lang]string{i18n.EN: "user_rate_limit is -1", i18n.ZH: "user_rate_limit 为 -1"}},
		{"an intelligent bot without its key", config.Bot{Platform: wecom.BotName, WebhookSecret: testToken},
			map[i18n.Lang]string{i18n.EN: "encoding_aes_key is not set", i18n.ZH: "未设置 encoding_aes_key"}},
	}
	for _, tc := range cases {
		for lang, want := range tc.want {
			t.Run(tc.name+"/"+string(lang), func(t *testing.T) {
				old := i18n.Current()
				i18n.SetLang(lang)
				defer i18n.SetLang(old)
				err := errors.Join((config.Config{Bot: tc.bot}).Validate(), tc.bot.Ready())
				if !errors.Is(err, config.ErrInvalid) || !strings.Contains(err.Error(), want) {
					t.Fatalf("error %v; want one saying %q", err, want)
				}
				if strings.Contains(err.Error(), "secret-but-short") {
					t.Fatal("the error shows the key")
				}
			})
		}
	}
}
