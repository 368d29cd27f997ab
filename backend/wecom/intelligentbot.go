package wecom

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"hermes/backend/callback"
	"hermes/backend/chat"
	"hermes/backend/chatapi"
)

// streamLimit is the most bytes a stream reply may hold.
const streamLimit = 20480

// streamTTL is how long a stream's reply is kept for WeCom to fetch.
const streamTTL = 30 * time.Minute

// botMessage is the decrypted JSON of an intelligent bot's callback: a
// user's message, or WeCom asking for more of a stream reply.
type botMessage struct {
	MsgID    string `json:"msgid"`
	ChatID   string `json:"chatid"`
	ChatType string `json:"chattype"`
	From     struct {
		UserID string `json:"userid"`
	} `json:"from"`
	MsgType string `json:"msgtype"`
	Text    struct {
		Content string `json:"content"`
	} `json:"text"`
	Stream struct {
		ID string `json:"id"`
	} `json:"stream"`
}

// IntelligentBot is the adapter of WeCom's intelligent bot (智能机器人): the same
// crypto with an empty receiver id over JSON, and replies streamed: the
// callback is answered with a stream id at once, and WeCom then asks for
// the stream's content until it is finished.
type IntelligentBot struct {
	cb    Callback
	in    chat.Inbox
	crypt *Crypter
	guard *callback.Guard

	mu      sync.Mutex
	streams map[string]*stream // stream id -> reply
	byMsg   map[string]string  // message id -> stream id, to answer a resend
	// shared, when set, keeps the streams for the bot's replicas
	// (streams_cluster.go): WeCom may ask any of them for more.
	shared chat.Streams
}

// NewIntelligentBot returns the adapter of an intelligent bot, which hands
// messages to in.
func NewIntelligentBot(cb Callback, in chat.Inbox) (*IntelligentBot, error) {
	c, err := NewCrypter(cb.Token, cb.EncodingAESKey, "")
	if err != nil {
		return nil, err
	}
	return &IntelligentBot{cb: cb, in: in, crypt: c, guard: callback.NewGuard(cb.Now), streams: map[string]*stream{}, byMsg: map[string]string{}}, nil
}

func (a *IntelligentBot) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet:
		echo, err := verifyEcho(a.crypt, a.guard, r)
		if err != nil {
			a.in.Refuse(w, r, err)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write(echo)
	case http.MethodPost:
		reply, err := a.receive(w, r)
		if err != nil {
			a.in.Refuse(w, r, err)
			return
		}
		if reply == nil {
			w.WriteHeader(http.StatusOK)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(reply)
	default:
		w.Header().Set("Allow", "GET, POST")
		http.Error(w, http.StatusText(http.StatusMethodNotAllowed), http.StatusMethodNotAllowed)
	}
}

// mention is the "@bot " a group message starts with.
var mention = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^@\S+\s*`) })

func (a *IntelligentBot) receive(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	body, err := callback.ReadBody(w, r, a.cb.BodyLimit())
	if err != nil {
		return nil, err
	}
	var env struct {
		Encrypt string `json:"encrypt"`
	}
	if err := json.Unmarshal(body, &env); err != nil || env.Encrypt == "" {
		return nil, fmt.Errorf("%w: body is not {\"encrypt\": …}", callback.ErrMalformed)
	}
	plain, err := openSigned(a.crypt, a.guard, r, env.Encrypt)
	if err != nil {
		return nil, err
	}
	var m botMessage
	if err := json.Unmarshal(plain, &m); err != nil {
		return nil, fmt.Errorf("%w: message JSON: %v", callback.ErrMalformed, err)
	}
	nonce := r.URL.Query().Get("nonce")
	switch m.MsgType {
	case "stream":
		return a.seal(a.find(m.Stream.ID).payload(m.Stream.ID), nonce)
	case "text":
		if m.From.UserID == "" {
			return nil, fmt.Errorf("%w: no from.userid", callback.ErrMalformed)
		}
		id, st, fresh := a.open(m.MsgID)
		if fresh {
			text := strings.TrimSpace(mention().ReplaceAllString(strings.TrimSpace(m.Text.Content), ""))
			if err := a.in.Deliver(chat.Message{ID: m.MsgID, User: m.From.UserID, Text: text}, a.replierOf(id, st)); err != nil {
				return nil, err
			}
		}
		return a.seal(st.payload(id), nonce)
	}
	return nil, nil // events and media: nothing to say
}

// open returns the stream that answers message msgID, making it on the
// message's first arrival.
func (a *IntelligentBot) open(msgID string) (string, *stream, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if id, ok := a.byMsg[msgID]; ok && a.streams[id] != nil {
		return id, a.streams[id], false
	}
	now := a.cb.Now()
	for id, st := range a.streams {
		if now.Sub(st.created) > streamTTL {
			delete(a.streams, id)
		}
	}
	for m, id := range a.byMsg {
		if a.streams[id] == nil {
			delete(a.byMsg, m)
		}
	}
	id := a.newStreamID(msgID)
	st := &stream{created: now}
	a.streams[id] = st
	if msgID != "" {
		a.byMsg[msgID] = id
	}
	return id, st, true
}

func (a *IntelligentBot) lookup(id string) *stream {
	a.mu.Lock()
	defer a.mu.Unlock()
	if st, ok := a.streams[id]; ok {
		return st
	}
	// Unknown or expired (a restart, say): close it rather than leave
	// WeCom asking.
	return &stream{finished: true}
}

// seal encrypts a reply for the callback's answer.
func (a *IntelligentBot) seal(payload any, nonce string) ([]byte, error) {
	plain, err := json.Marshal(payload)
	if err != nil {
		return nil, err
	}
	ts := strconv.FormatInt(a.cb.Now().Unix(), 10)
	enc, sig, err := a.crypt.Seal(plain, ts, nonce)
	if err != nil {
		return nil, err
	}
	return json.Marshal(map[string]any{"encrypt": enc, "msgsignature": sig, "timestamp": a.cb.Now().Unix(), "nonce": nonce})
}

// stream is the reply to one message, as WeCom fetches it: the notices so
// far, then the model's text as it is written, then the answer.
type stream struct {
	created time.Time

	mu       sync.Mutex
	notices  []string
	draft    string
	answer   string
	finished bool
}

func (s *stream) Reply(_ context.Context, text string, final bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if final {
		s.answer, s.finished = text, true
	} else {
		s.notices = append(s.notices, text)
	}
	return nil
}

func (s *stream) Draft(text string) {
	s.mu.Lock()
	s.draft = text
	s.mu.Unlock()
}

type streamPayload struct {
	MsgType string `json:"msgtype"`
	Stream  struct {
		ID      string `json:"id"`
		Finish  bool   `json:"finish"`
		Content string `json:"content"`
	} `json:"stream"`
}

func (s *stream) payload(id string) streamPayload {
	s.mu.Lock()
	defer s.mu.Unlock()
	parts := append([]string(nil), s.notices...)
	if s.finished {
		parts = append(parts, s.answer)
	} else if s.draft != "" {
		parts = append(parts, s.draft)
	}
	var p streamPayload
	p.MsgType = "stream"
	p.Stream.ID, p.Stream.Finish = id, s.finished
	p.Stream.Content = strings.Join(parts, "\n\n")
	if len(p.Stream.Content) > streamLimit {
		p.Stream.Content = chatapi.Split(p.Stream.Content, streamLimit-len("…"))[0] + "…"
	}
	return p
}
