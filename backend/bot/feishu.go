package bot

import (
	"net/http"

	"hermes/backend/config"
	"hermes/backend/feishu"
)

var _ Platform = (*feishu.Adapter)(nil)

// feishuInbox is the bot as Feishu's adapter hands it messages.
type feishuInbox struct{ b *Bot }

var _ feishu.Inbox = feishuInbox{}

func (in feishuInbox) Deliver(m feishu.Message, r feishu.Replier) error {
	_, err := in.b.Deliver(config.BotFeishu, Message(m), r)
	return err
}

// Unsupported answers that only text is understood.
func (in feishuInbox) Unsupported(m feishu.Message, r feishu.Replier) error {
	return in.b.notice(config.BotFeishu, Message(m), r, "bot.not_text")
}

func (in feishuInbox) Refuse(w http.ResponseWriter, r *http.Request, err error) {
	in.b.refuse(w, r, err)
}

// newFeishu builds the adapter of a Feishu (or Lark) app and its API
// client; the event_ids it hands on are de-duplicated as WeCom's ids are.
func (b *Bot) newFeishu(o Options) *feishu.Adapter {
	c := o.Config
	api := feishu.APIOptions{
		Base: c.API(), AppID: c.AppID, AppSecret: c.AppSecret, Rate: c.APIRate(),
		HTTP: o.HTTP, Backoff: o.APIBackoff, Now: o.Now,
	}
	if sh := o.Shared; sh != nil {
		// The replicas share the tenant token and the app's rate.
		api.Token, api.RateLimit = sh.Token, sh.Rate
	}
	b.lark = feishu.NewAPI(api)
	return feishu.NewAdapter(feishu.Callback{
		VerificationToken: c.VerificationToken, EncryptKey: c.EncryptKey,
		BodyLimit: func() int { return b.current().cfg.BodyLimit() }, Now: b.now,
	}, b.lark, feishuInbox{b})
}

// FeishuAPI is the Feishu API client of a Feishu bot, nil for the other
// platforms.
func (b *Bot) FeishuAPI() *feishu.API { return b.lark }
