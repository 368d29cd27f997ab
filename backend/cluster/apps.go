package cluster

import (
	"fmt"

	"hermes/backend/config"
)

// AppOf names the platform's app that the bot of b answers for: the
// replicas of one app share its access token and its rate limit.
func AppOf(b config.Bot) string {
	if b.PlatformName() == config.BotFeishu {
		return "feishu/" + b.AppID
	}
	return fmt.Sprintf("%s/%d", b.CorpID, b.AgentID)
}
