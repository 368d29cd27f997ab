package bot

import (
	"net/http"

	"hermes/backend/wecom"
)

// Platform is a chat platform as the bot meets it; New makes the one [bot]
// platform names. Its ServeHTTP serves the callback path: it verifies each
// callback (signature, timestamp, nonce), decodes it (decrypting what the
// platform encrypts) and hands the messages to the bot (Deliver, notice)
// with a Replier for their sender, before it answers the callback. Its
// Repliers carry the replies back within the platform's limits (the size of
// one message, the API's rates), and are Drafters too where the platform
// can show a reply being written. WeCom's two adapters (backend/wecom),
// Feishu's (backend/feishu, feishu.go) and the generic webhook are
// Platforms; another is one more case in New, and the sessions, runs and
// commands stay as they are.
type Platform interface {
	http.Handler
}

var (
	_ Platform = (*wecom.App)(nil)
	_ Platform = (*wecom.IntelligentBot)(nil)
	_ Platform = (*webhook)(nil)
)

// wecomInbox is the bot as WeCom's adapters hand it messages: those of
// platform (config.BotWeCom or config.BotWeComBot).
type wecomInbox struct {
	b        *Bot
	platform string
}

var _ wecom.Inbox = wecomInbox{}

func (in wecomInbox) Deliver(m wecom.Message, r wecom.Replier) error {
	_, err := in.b.Deliver(in.platform, Message(m), r)
	return err
}

// Unsupported answers that only text is understood.
func (in wecomInbox) Unsupported(m wecom.Message, r wecom.Replier) error {
	return in.b.notice(in.platform, Message(m), r, "bot.not_text")
}

func (in wecomInbox) Refuse(w http.ResponseWriter, r *http.Request, err error) {
	in.b.refuse(w, r, err)
}

// wecomCallback is what WeCom's adapters check callbacks with: the [bot]
// section's token and key, and its body limit as it stands at each one.
func (b *Bot) wecomCallback() wecom.Callback {
	cfg := b.current().cfg
	return wecom.Callback{
		Token: cfg.WebhookSecret, EncodingAESKey: cfg.EncodingAESKey,
		BodyLimit: func() int { return b.current().cfg.BodyLimit() }, Now: b.now,
	}
}
