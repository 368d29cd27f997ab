// Package feishu is Feishu's (and Lark's) side of hermes bot: the event
// subscription callback (URL verification, the Encrypt Key's decryption and
// X-Lark-Signature, the verification token), im.message.receive_v1 text
// messages, and the open API client (tenant access tokens cached and
// refreshed, rate limits, backoff) that carries replies back as text, rich
// text or cards. It knows nothing of runs or sessions: backend/bot is the
// Inbox. Nothing here puts the app secret, the verification token, the
// encrypt key or an access token in an error.
package feishu

import (
	"context"
	"net/http"
	"time"
)

// Message is one text a user sent, as an event carries it.
type Message struct {
	ID   string // the event's event_id, for de-duplication
	User string // the sender: their open_id, and the chat's id in a group
	Text string // with @mentions taken out
}

// Replier carries replies back to the sender of one message; final marks
// the end of what there is to say about it.
type Replier interface {
	Reply(ctx context.Context, text string, final bool) error
}

// Inbox takes what the callbacks carry; hermes bot's sessions are one. A
// callback is answered once Deliver or Unsupported returns.
type Inbox interface {
	// Deliver queues a text message, to be answered through r.
	Deliver(m Message, r Replier) error
	// Unsupported takes a message that is not text (a picture, say).
	Unsupported(m Message, r Replier) error
	// Refuse answers a callback that failed its checks; err says why and
	// holds no secret.
	Refuse(w http.ResponseWriter, r *http.Request, err error)
}

// Callback is what the adapter checks events with.
type Callback struct {
	VerificationToken string
	EncryptKey        string // "": events come in plain JSON, unsigned
	// BodyLimit is the most bytes a callback may hold, read for each one.
	BodyLimit func() int
	Now       func() time.Time
}
