package bot

import (
	"hermes/backend/config"
	"hermes/backend/feishu"
	"hermes/backend/wecom"
)

// shareReplies readies the platform's replies to go out from any replica
// and reports whether they can: WeCom's application, the webhook and
// Feishu reply through an API any replica may call; WeCom's intelligent
// bot answers through streams, which the replicas then share.
func (b *Bot) shareReplies(sh *Shared) bool {
	switch p := b.platform.(type) {
	case *wecom.App, *webhook, *feishu.Adapter:
		return true
	case *wecom.IntelligentBot:
		if sh.Streams != nil {
			p.Share(sh.Streams)
			return true
		}
	}
	return false
}

// replierTo is the replier of a message of platform whose reply goes to
// (its replier's Address), nil when this replica cannot reply there.
func (b *Bot) replierTo(platform, to string) Replier {
	switch p := b.platform.(type) {
	case *feishu.Adapter:
		if platform == config.BotFeishu && b.lark != nil {
			return b.lark.ReplierTo(to)
		}
	case *wecom.IntelligentBot:
		if platform == config.BotWeComBot {
			return p.ReplierTo(to)
		}
	}
	return nil
}

// addressOf is where r replies, as a task carries it to another replica;
// "" for the platforms that reply to a user wherever the message came from.
func addressOf(r Replier) string {
	if a, ok := r.(interface{ Address() string }); ok {
		return a.Address()
	}
	return ""
}
