// Package wecom is WeCom's side of hermes bot: the callback crypto and
// signatures (WXBizMsgCrypt), the XML and JSON messages, the server API
// client (its access token cache, rate limits and retries) and the two
// adapters — a self-built application and the intelligent bot — that turn
// callbacks into messages for a chat.Inbox and carry the replies back within
// WeCom's limits. It knows nothing of runs or sessions: backend/bot is the
// Inbox. Nothing here puts the token, the AES key, the secret or an access
// token in an error.
package wecom

import "time"

// Callback is what both adapters check a callback with.
type Callback struct {
	Token          string // the callback's token ([bot] webhook_secret)
	EncodingAESKey string
	// BodyLimit is the most bytes a callback may hold, read for each one
	// (an edit of [bot] max_body takes effect at once).
	BodyLimit func() int
	Now       func() time.Time
}
