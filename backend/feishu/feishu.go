// Package feishu is Feishu's (and Lark's) side of hermes bot: the event
// subscription callback (URL verification, the Encrypt Key's decryption and
// X-Lark-Signature, the verification token), im.message.receive_v1 text
// messages, and the open API client (tenant access tokens cached and
// refreshed, rate limits, backoff) that carries replies back as text, rich
// text or cards, registered as the platform "feishu" (platform.go). It
// knows nothing of runs or sessions: backend/bot is the chat.Inbox.
// Nothing here puts the app secret, the verification token, the encrypt
// key or an access token in an error.
package feishu

import "time"

// Callback is what the adapter checks events with.
type Callback struct {
	VerificationToken string
	EncryptKey        string // "": events come in plain JSON, unsigned
	// BodyLimit is the most bytes a callback may hold, read for each one.
	BodyLimit func() int
	Now       func() time.Time
}
