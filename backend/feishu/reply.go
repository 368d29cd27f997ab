package feishu

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"

	"hermes/backend/chat"
	"hermes/backend/chatapi"
)

// Sizes of what one reply may hold. Feishu takes a post's or card's
// request of up to 30 KB; content is JSON inside JSON, where a quote grows
// to four bytes, so the parts are cut well below.
const (
	shortText = 1000 // bytes: at most this and few lines go as plain text
	shortRows = 8    // lines
	partLimit = 7000 // bytes of text in one post or card
)

// questionMark starts the bot's questions (bot.question, in both
// languages); they go as a card, so they stand out from the answers.
const questionMark = "❓"

// msg is one message to send: its msg_type and JSON content.
type msg struct{ typ, content string }

// format turns a reply into the messages that carry it: a short one as
// text, a question as an interactive card, a long one as rich text (post),
// in as many parts as its length needs.
func format(text string) []msg {
	if strings.HasPrefix(text, questionMark) && len(text) <= partLimit {
		title, body, _ := strings.Cut(text, "\n")
		return []msg{{"interactive", card(title, body)}}
	}
	if len(text) <= shortText && strings.Count(text, "\n") < shortRows {
		return []msg{{"text", encode(map[string]string{"text": text})}}
	}
	var out []msg
	for _, part := range chatapi.Split(text, partLimit) {
		out = append(out, msg{"post", post(part)})
	}
	return out
}

// post is rich text of one paragraph per line. Lines are plain text, not
// Markdown: a model's Markdown reads well as it is.
func post(text string) string {
	var rows [][]map[string]string
	for line := range strings.SplitSeq(strings.TrimRight(text, "\n"), "\n") {
		rows = append(rows, []map[string]string{{"tag": "text", "text": line}})
	}
	return encode(map[string]any{"zh_cn": map[string]any{"title": "", "content": rows}})
}

// card is an interactive card with title as its header and body drawn as
// Markdown.
func card(title, body string) string {
	c := map[string]any{
		"config": map[string]bool{"wide_screen_mode": true},
		"header": map[string]any{
			"template": "orange",
			"title":    map[string]string{"tag": "plain_text", "content": title},
		},
		"elements": []map[string]string{},
	}
	if body = strings.TrimSpace(body); body != "" {
		c["elements"] = []map[string]string{{"tag": "markdown", "content": body}}
	}
	return encode(c)
}

func encode(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // maps of strings always encode
	return strings.TrimSuffix(b.String(), "\n")
}

// replier replies to one message: in a group, the reply quotes the
// message it answers, so the asker sees it among others'. Once the sender
// has withdrawn that message, the rest goes to the chat.
type replier struct {
	api       *API
	messageID string
	chatID    string
}

// address is where a replier replies, as the task of a clustered bot
// carries it to the replica that runs it.
type address struct {
	MessageID string `json:"m"`
	ChatID    string `json:"c,omitempty"`
}

// Address is where r replies, for ReplierTo on another replica.
func (r *replier) Address() string {
	data, _ := json.Marshal(address{r.messageID, r.chatID})
	return string(data)
}

// ReplierTo is the replier of the message at addr (a replier's Address),
// nil for an address it cannot read.
func (a *API) ReplierTo(addr string) chat.Replier {
	var at address
	if json.Unmarshal([]byte(addr), &at) != nil || at.MessageID == "" {
		return nil
	}
	return &replier{api: a, messageID: at.MessageID, chatID: at.ChatID}
}

// CommitsOnSend says Reply calls the context's commit (chatapi.WithCommit)
// when the message's turn under the rate limits has come.
func (*replier) CommitsOnSend() {}

func (r *replier) Reply(ctx context.Context, text string, _ bool) error {
	for _, m := range format(text) {
		err := r.api.Reply(ctx, r.messageID, m.typ, m.content)
		var apiErr *APIError
		if errors.As(err, &apiErr) && apiErr.Code == codeWithdrawn && r.chatID != "" {
			err = r.api.Send(ctx, r.chatID, m.typ, m.content)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
