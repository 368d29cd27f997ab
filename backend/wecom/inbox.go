// Package wecom is WeCom's side of hermes bot: the callback crypto and
// signatures (WXBizMsgCrypt), the XML and JSON messages, the server API
// client (its access token cache, rate limits and retries) and the two
// adapters — a self-built application and the intelligent bot — that turn
// callbacks into messages for an Inbox and carry the replies back within
// WeCom's limits. It knows nothing of runs or sessions: backend/bot is the
// Inbox. Nothing here puts the token, the AES key, the secret or an access
// token in an error.
package wecom

import (
	"context"
	"net/http"
	"time"
)

// Message is one text a user sent, as a callback carries it.
type Message struct {
	ID   string // WeCom's message id, for de-duplication; "" when it has none
	User string // the sender, as the callback names them
	Text string
}

// Replier carries replies back to the sender of one message; final marks
// the end of what there is to say about it. The intelligent bot's also has
// Draft(text), which shows text being written.
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

// Callback is what both adapters check a callback with.
type Callback struct {
	Token          string // the callback's token ([bot] webhook_secret)
	EncodingAESKey string
	// BodyLimit is the most bytes a callback may hold, read for each one
	// (an edit of [bot] max_body takes effect at once).
	BodyLimit func() int
	Now       func() time.Time
}
