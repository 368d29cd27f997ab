package bot

import (
	"context"
	"net/http"
	"strings"

	"hermes/backend/chat"
	"hermes/backend/config"
	"hermes/backend/i18n"
	"hermes/backend/wecom"
)

// newPlatform builds the adapter of the platform [bot] names, registered
// by its package (chat.Register), with the bot as its Inbox.
func (b *Bot) newPlatform(o Options) (chat.Adapter, error) {
	name := o.Config.PlatformName()
	p, ok := chat.Lookup(name)
	if !ok {
		return nil, i18n.Wrap(config.ErrInvalid, "config.bot.platform", name, `"`+strings.Join(chat.Names(), `", "`)+`"`)
	}
	env := chat.Env{
		Config: o.Config, Inbox: inbox{b, name}, HTTP: o.HTTP, Backoff: o.APIBackoff, Now: o.Now, Cache: o.Store,
		BodyLimit: func() int { return b.current().cfg.BodyLimit() },
	}
	if o.Shared != nil {
		env.Shared = o.Shared.Platform
	}
	return p.New(env)
}

// inbox is the bot as a platform's adapter hands it messages: those of
// platform.
type inbox struct {
	b        *Bot
	platform string
}

func (in inbox) Deliver(m chat.Message, r chat.Replier) error {
	_, err := in.b.Deliver(in.platform, m, r)
	return err
}

// Unsupported answers that only text is understood.
func (in inbox) Unsupported(m chat.Message, r chat.Replier) error {
	return in.b.notice(in.platform, m, r, "bot.not_text")
}

func (in inbox) Refuse(w http.ResponseWriter, r *http.Request, err error) {
	in.b.refuse(w, r, err)
}

// replierOf is the replier of a user of platform on this replica, for a
// message whose reply goes to (its replier's Address), nil where replies
// can only go back through the callback that brought the message.
func (b *Bot) replierOf(platform, user, to string) chat.Replier {
	p, ok := b.platform.(chat.Replicated)
	if !ok || platform != b.current().cfg.PlatformName() {
		return nil
	}
	return p.ReplierTo(user, to)
}

// addressOf is where r replies, as a task carries it to another replica;
// "" for the platforms that reply to a user wherever the message came from.
func addressOf(r chat.Replier) string {
	if a, ok := r.(chat.Addressed); ok {
		return a.Address()
	}
	return ""
}

// directory is an adapter that can say who a user is from the company's
// contacts (WeCom's application), for [bot] allow_departments and a run's
// record of who asked.
type directory interface {
	Person(ctx context.Context, user string) (wecom.Person, error)
}
