// Package chat is what hermes bot and a chat platform say to each other: the
// Message a callback carries, the Replier that carries the answer back, the
// Inbox a platform hands messages to, and the Platform a platform registers
// itself as (Register), with its [bot] keys, its adapter and what its API
// client shares with the bot's other replicas. backend/bot is the Inbox of
// every platform; backend/wecom, backend/feishu and backend/webhook are
// platforms, linked by backend/platforms. It knows nothing of runs or
// sessions.
package chat

import (
	"context"
	"net/http"
)

// Message is one text a user sent, as a callback carries it.
type Message struct {
	ID   string // the platform's message (or event) id, for de-duplication; "" when it has none
	User string // the sender, as the callback names them (in a group chat, with the chat's id)
	Text string
}

// Replier carries replies back to the sender of one message; final marks
// the end of what there is to say about it (a run's answer, a command's
// reply), where a replier that streams closes the stream.
type Replier interface {
	Reply(ctx context.Context, text string, final bool) error
}

// Drafter is a Replier that can show a reply while the model writes it.
type Drafter interface {
	Draft(text string)
}

// Addressed is a Replier that answers where its message came from (a
// Feishu message, a WeCom stream) rather than to its sender wherever they
// are: Address is where, as a task carries it to another replica
// (Replicated.ReplierTo).
type Addressed interface {
	Address() string
}

// Inbox takes what a platform's callbacks carry; hermes bot's sessions are
// the Inbox of every platform. A callback is answered once Deliver or
// Unsupported returns.
type Inbox interface {
	// Deliver queues a text message, to be answered through r.
	Deliver(m Message, r Replier) error
	// Unsupported takes a message that is not text (a picture, say).
	Unsupported(m Message, r Replier) error
	// Refuse answers a callback that failed its checks; err says why and
	// holds no secret.
	Refuse(w http.ResponseWriter, r *http.Request, err error)
}
