package config_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"hermes/backend/config"
	"hermes/backend/feishu"
	"hermes/backend/webhook"
	// The chat platforms register their keys of [bot] (chat.Register), so
	// that this package's tests check and document the platforms hermes
	// links: the reference in docs/config.md and `hermes config init` are
	// theirs too.
	_ "hermes/backend/platforms"
)

// TestMarshal_PlatformKeysInBot: a platform's own keys are written in [bot]
// with the others, as the file gave them (`hermes config show`), secrets
// starred out by Redacted, and read back the same.
func TestMarshal_PlatformKeysInBot(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hermes.toml")
	src := "[bot]\nplatform = \"feishu\"\napp_id = \"cli_a1b2\"\napp_secret = \"feishu-secret-77\"\nhistory = 4\n"
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	shown, err := config.Marshal(cfg.Redacted())
	if err != nil {
		t.Fatal(err)
	}
	bot := string(shown[strings.Index(string(shown), "[bot]"):])
	for _, want := range []string{`app_id = "cli_a1b2"`, `app_secret = "********"`, "history = 4"} {
		if !strings.Contains(bot, want) {
			t.Errorf("[bot] as shown lacks %s:\n%s", want, bot)
		}
	}
	if strings.Contains(string(shown), "feishu-secret-77") {
		t.Error("the secret is shown")
	}
	raw, err := config.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	back, err := config.Load(path)
	if err != nil {
		t.Fatalf("the file written does not load: %v\n%s", err, raw)
	}
	if !reflect.DeepEqual(back.Bot, cfg.Bot) || config.BotKeys[feishu.Keys](back.Bot).AppSecret != "feishu-secret-77" {
		t.Fatalf("read back as %+v, want %+v", back.Bot, cfg.Bot)
	}
}

// TestBot_ChangedKeysNamesAPlatformsOwn: an edit of a platform's own key
// is named (the bot says it needs a restart); one of another key is not.
func TestBot_ChangedKeysNamesAPlatformsOwn(t *testing.T) {
	old := config.WithBotKeys(config.Bot{Platform: feishu.Name}, feishu.Keys{AppID: "cli_1", AppSecret: "s1"})
	next := config.WithBotKeys(old, feishu.Keys{AppID: "cli_1", AppSecret: "s2"})
	if got := old.ChangedKeys(next); !reflect.DeepEqual(got, []string{"app_secret"}) {
		t.Fatalf("ChangedKeys = %q, want app_secret", got)
	}
	next = old
	next.History = 3
	if got := old.ChangedKeys(next); len(got) != 0 {
		t.Fatalf("ChangedKeys = %q for an edit of history", got)
	}
	if k := config.BotKeys[feishu.Keys](old); k.AppSecret != "s1" {
		t.Fatalf("WithBotKeys changed the Bot it was given: %+v", k)
	}
}

// TestValidate_PlatformsOwnKeys: a platform's own key is checked where it
// is written, whichever platform [bot] names: the webhook's reply_url must
// be a URL.
func TestValidate_PlatformsOwnKeys(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hermes.toml")
	if err := os.WriteFile(path, []byte("[bot]\nplatform = \"wecom_bot\"\nreply_url = \"hooks.example\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if k := config.BotKeys[webhook.Keys](cfg.Bot); k.ReplyURL != "hooks.example" {
		t.Fatalf("reply_url read as %q", k.ReplyURL)
	}
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "reply_url") {
		t.Fatalf("Validate = %v, want reply_url refused", err)
	}
}
