package wecom

import (
	"hermes/backend/chat"
	"hermes/backend/chatapi"
)

// SharedToken is the access token as the replicas of a clustered bot share
// it: WeCom keeps one valid token per application and limits how often it
// is fetched.
type SharedToken = chatapi.SharedToken

// ReplierTo is the replier of user, as a message of theirs would get: a
// clustered bot answers on one replica a message another one received.
func (a *App) ReplierTo(user, _ string) chat.Replier { return a.replier(user) }
