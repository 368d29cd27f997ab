package feishu

import (
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"hermes/backend/callback"
	"hermes/backend/chat"
)

// Headers of a signed event.
const (
	HeaderTimestamp = "X-Lark-Request-Timestamp"
	HeaderNonce     = "X-Lark-Request-Nonce"
	HeaderSignature = "X-Lark-Signature"
)

// EventMessageReceive is the event of a message sent to the bot.
const EventMessageReceive = "im.message.receive_v1"

// envelope is a callback's body as posted: plain, or one encrypt field.
type envelope struct {
	Encrypt string `json:"encrypt"`
}

// event is a decrypted callback: a URL verification (type, token,
// challenge), an event of schema 2.0 (header, event) or one of schema 1.0
// (token, ts). Feishu sends the times as strings; a number is read too.
type event struct {
	Type      string      `json:"type"`
	Token     string      `json:"token"`
	TS        json.Number `json:"ts"` // schema 1.0: seconds, with a fraction ("1502199207.7171419")
	Challenge string      `json:"challenge"`
	Schema    string      `json:"schema"`
	Header    struct {
		EventID    string      `json:"event_id"`
		EventType  string      `json:"event_type"`
		Token      string      `json:"token"`
		CreateTime json.Number `json:"create_time"` // milliseconds
	} `json:"header"`
	Event json.RawMessage `json:"event"`
}

// messageEvent is im.message.receive_v1's event.
type messageEvent struct {
	Sender struct {
		SenderID struct {
			OpenID string `json:"open_id"`
		} `json:"sender_id"`
		SenderType string `json:"sender_type"`
	} `json:"sender"`
	Message struct {
		MessageID   string `json:"message_id"`
		ChatID      string `json:"chat_id"`
		ChatType    string `json:"chat_type"`
		MessageType string `json:"message_type"`
		Content     string `json:"content"`
		Mentions    []struct {
			Key string `json:"key"`
			ID  struct {
				OpenID string `json:"open_id"`
			} `json:"id"`
		} `json:"mentions"`
	} `json:"message"`
}

// Adapter is the event subscription's callback of a Feishu (or Lark) app:
// the URL verification, and the messages people send the bot, to p2p
// chats or with an @mention in groups; replies go through the API.
type Adapter struct {
	cb    Callback
	in    chat.Inbox
	api   *API
	crypt *Crypter // nil without an encrypt key
	guard *callback.Guard
}

// NewAdapter returns the adapter that hands messages to in and replies
// through api.
func NewAdapter(cb Callback, api *API, in chat.Inbox) *Adapter {
	a := &Adapter{cb: cb, in: in, api: api, guard: callback.NewGuard(cb.Now)}
	if cb.EncryptKey != "" {
		a.crypt = NewCrypter(cb.EncryptKey)
	}
	return a
}

func (a *Adapter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		http.Error(w, http.StatusText(http.StatusMethodNotAllowed), http.StatusMethodNotAllowed)
		return
	}
	answer, err := a.receive(w, r)
	if err != nil {
		a.in.Refuse(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Write(answer)
}

// receive checks and reads one callback and returns the body to answer.
func (a *Adapter) receive(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	body, err := callback.ReadBody(w, r, a.cb.BodyLimit())
	if err != nil {
		return nil, err
	}
	plain, signed, err := a.open(r, body)
	if err != nil {
		return nil, err
	}
	var ev event
	if err := json.Unmarshal(plain, &ev); err != nil {
		return nil, fmt.Errorf("%w: JSON: %v", callback.ErrMalformed, err)
	}
	if ev.Type == "url_verification" {
		// Feishu does not sign the URL verification; the token (and, with
		// a key, the encryption) is what proves it comes from Feishu.
		if err := a.checkToken(ev.Token); err != nil {
			return nil, err
		}
		return json.Marshal(map[string]string{"challenge": ev.Challenge})
	}
	if a.crypt != nil && !signed {
		return nil, ErrUnsigned
	}
	if ev.Schema != "2.0" {
		// Events of schema 1.0 are older kinds the bot does not ask for.
		if err := a.checkToken(ev.Token); err != nil {
			return nil, err
		}
		if err := a.fresh(ev); err != nil {
			return nil, err
		}
		return []byte("{}"), nil
	}
	if err := a.checkToken(ev.Header.Token); err != nil {
		return nil, err
	}
	if err := a.fresh(ev); err != nil {
		return nil, err
	}
	if ev.Header.EventType == EventMessageReceive {
		if ev.Header.EventID == "" {
			return nil, fmt.Errorf("%w: no event_id", callback.ErrMalformed)
		}
		if err := a.message(ev.Header.EventID, ev.Event); err != nil {
			return nil, err
		}
	}
	return []byte("{}"), nil
}

// open verifies the signature and decrypts the body when there is a key,
// and says whether the body was signed.
func (a *Adapter) open(r *http.Request, body []byte) (plain []byte, signed bool, err error) {
	var env envelope
	if err := json.Unmarshal(body, &env); err != nil {
		return nil, false, fmt.Errorf("%w: JSON: %v", callback.ErrMalformed, err)
	}
	if a.crypt == nil {
		if env.Encrypt != "" {
			return nil, false, fmt.Errorf("%w: the event is encrypted but [bot] encrypt_key is not set; copy the app's Encrypt Key into it", callback.ErrMalformed)
		}
		return body, false, nil
	}
	if env.Encrypt == "" {
		return nil, false, fmt.Errorf("%w: no encrypt field while [bot] encrypt_key is set", callback.ErrSignature)
	}
	ts, nonce, sig := r.Header.Get(HeaderTimestamp), r.Header.Get(HeaderNonce), r.Header.Get(HeaderSignature)
	if sig != "" {
		if err := a.crypt.Verify(ts, nonce, sig, body); err != nil {
			return nil, false, err
		}
		// A replay within the skew is the same event_id again, which the
		// bot drops; Feishu's own resends may repeat a nonce, so nonces are
		// not refused.
		if err := a.guard.Fresh(ts); err != nil {
			return nil, false, err
		}
	}
	plain, err = a.crypt.Decrypt(env.Encrypt)
	return plain, sig != "", err
}

// fresh refuses an event created more than five minutes from this
// machine's clock. Without an Encrypt Key nothing else dates an event, and
// one captured with its token could be sent again at any time; with a key
// the signature dates the request, and this dates the event inside it.
func (a *Adapter) fresh(ev event) error {
	if ev.Schema == "2.0" {
		ms, err := ev.Header.CreateTime.Int64()
		if err != nil {
			return fmt.Errorf("%w: header.create_time is not a time in milliseconds", callback.ErrMalformed)
		}
		return a.guard.FreshAt(time.UnixMilli(ms))
	}
	whole, _, _ := strings.Cut(ev.TS.String(), ".")
	sec, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		return fmt.Errorf("%w: ts is not a time in seconds", callback.ErrMalformed)
	}
	return a.guard.FreshAt(time.Unix(sec, 0))
}

func (a *Adapter) checkToken(token string) error {
	if subtle.ConstantTimeCompare([]byte(token), []byte(a.cb.VerificationToken)) != 1 {
		return ErrToken
	}
	return nil
}

// message hands a received message to the inbox: text in a p2p chat, or
// in a group when it @mentions the bot (the only group messages Feishu
// sends an app without the permission to read them all).
func (a *Adapter) message(eventID string, raw json.RawMessage) error {
	var e messageEvent
	if err := json.Unmarshal(raw, &e); err != nil {
		return fmt.Errorf("%w: event: %v", callback.ErrMalformed, err)
	}
	m := e.Message
	sender := e.Sender.SenderID.OpenID
	if m.MessageID == "" || sender == "" {
		return fmt.Errorf("%w: no message_id or sender open_id", callback.ErrMalformed)
	}
	if e.Sender.SenderType != "" && e.Sender.SenderType != "user" {
		return nil // another app or bot: never answered, so bots cannot loop
	}
	user := sender
	if m.ChatType != "p2p" {
		if !a.mentioned(e) {
			return nil // group talk not addressed to the bot
		}
		// One session per person per group, apart from their p2p chat.
		user = sender + "@" + m.ChatID
	}
	msg := chat.Message{ID: eventID, User: user}
	r := &replier{api: a.api, messageID: m.MessageID, chatID: m.ChatID}
	text, ok, err := textOf(m.MessageType, m.Content)
	if err != nil {
		return err
	}
	if !ok {
		return a.in.Unsupported(msg, r)
	}
	// Mentions stand in the text as keys, "@_user_1"; the longest go
	// first, so "@_user_1" does not eat the start of "@_user_10".
	keys := make([]string, 0, len(m.Mentions))
	for _, mention := range m.Mentions {
		if mention.Key != "" {
			keys = append(keys, mention.Key)
		}
	}
	slices.SortFunc(keys, func(x, y string) int { return len(y) - len(x) })
	for _, k := range keys {
		text = strings.ReplaceAll(text, k, "")
	}
	msg.Text = strings.TrimSpace(text)
	if msg.Text == "" {
		return nil // an @mention alone
	}
	return a.in.Deliver(msg, r)
}

// mentioned reports whether a group message @mentions the bot: by its
// open_id once the API has learnt it, else by any @mention (Feishu sends an
// app only the group messages that @mention it, unless it may read all).
func (a *Adapter) mentioned(e messageEvent) bool {
	bot := a.api.BotOpenID()
	for _, m := range e.Message.Mentions {
		if bot == "" || m.ID.OpenID == bot {
			return true
		}
	}
	return false
}

// textOf is the words of a message: a text message's text, or a rich text
// (post) message's title and text, one line per paragraph (Feishu sends a
// post when the sender formats a line, or pastes a link). ok is false for
// a message with no words (a picture, a file, a sticker).
func textOf(msgType, content string) (text string, ok bool, err error) {
	switch msgType {
	case "text":
		var c struct {
			Text string `json:"text"`
		}
		if err := json.Unmarshal([]byte(content), &c); err != nil {
			return "", false, fmt.Errorf("%w: text content: %v", callback.ErrMalformed, err)
		}
		return c.Text, true, nil
	case "post":
		var c struct {
			Title   string `json:"title"`
			Content [][]struct {
				Tag  string `json:"tag"`
				Text string `json:"text"`
			} `json:"content"`
		}
		if err := json.Unmarshal([]byte(content), &c); err != nil {
			return "", false, fmt.Errorf("%w: post content: %v", callback.ErrMalformed, err)
		}
		var lines []string
		if c.Title != "" {
			lines = append(lines, c.Title)
		}
		for _, para := range c.Content {
			var line strings.Builder
			for _, el := range para {
				switch el.Tag {
				case "text", "a", "code_block", "md":
					line.WriteString(el.Text)
				}
			}
			lines = append(lines, line.String())
		}
		return strings.Join(lines, "\n"), true, nil
	}
	return "", false, nil
}
