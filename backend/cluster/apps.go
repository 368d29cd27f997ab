package cluster

import (
	"hermes/backend/chat"
	"hermes/backend/chatapi"
)

// Platform is what the cluster keeps for a chat platform (chat.Shared):
// each app's access token and rate, per-key limits, user-id conversions
// and streamed replies, each named by the platform.
func (cl *Cluster) Platform() chat.Shared { return platformShare{cl} }

type platformShare struct{ cl *Cluster }

func (p platformShare) Token(app string) chatapi.SharedToken { return p.cl.Token(app) }
func (p platformShare) Rate(app string, n int) chatapi.Limit { return p.cl.Rate(app, n) }
func (p platformShare) Limits() chatapi.SharedLimits         { return p.cl.Limits() }
func (p platformShare) Cache() chatapi.UserIDCache           { return p.cl.UserIDs() }
func (p platformShare) Streams() chat.Streams                { return p.cl.Streams() }
