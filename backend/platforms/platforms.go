// Package platforms links the chat platforms hermes bot serves. Each
// registers itself when linked (chat.Register: its [bot] keys, its
// adapter, what it shares with the bot's replicas), so a new platform is
// its own package and one line here.
package platforms

import (
	_ "hermes/backend/feishu"
	_ "hermes/backend/webhook"
	_ "hermes/backend/wecom"
)
