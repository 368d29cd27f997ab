package wecom

import (
	"context"
	"encoding/xml"
	"fmt"
	"net/http"
	"sync"

	"hermes/backend/callback"
	"hermes/backend/chat"
	"hermes/backend/chatapi"
)

// appEnvelope is the XML body WeCom posts to an application's callback.
type appEnvelope struct {
	ToUserName string `xml:"ToUserName"`
	Encrypt    string `xml:"Encrypt"`
	AgentID    string `xml:"AgentID"`
}

// appMessage is the decrypted message of an application callback.
type appMessage struct {
	ToUserName   string `xml:"ToUserName"`
	FromUserName string `xml:"FromUserName"`
	CreateTime   int64  `xml:"CreateTime"`
	MsgType      string `xml:"MsgType"`
	Content      string `xml:"Content"`
	MsgID        string `xml:"MsgId"`
	AgentID      string `xml:"AgentID"`
	Event        string `xml:"Event"`
}

// parseAppXML decodes one XML document, refusing anything else.
func parseAppXML(data []byte, v any) error {
	if err := xml.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%w: XML: %v", callback.ErrMalformed, err)
	}
	return nil
}

// App is the adapter of a self-built application's callback: URL
// verification by GET, messages by POST, replies through message/send.
type App struct {
	cb    Callback
	in    chat.Inbox
	api   *API
	crypt *Crypter
	guard *callback.Guard

	mu       sync.Mutex
	repliers map[string]*appReplier
}

// NewApp returns the adapter of the application of corpID, which hands
// messages to in and replies through api.
func NewApp(cb Callback, corpID string, api *API, in chat.Inbox) (*App, error) {
	c, err := NewCrypter(cb.Token, cb.EncodingAESKey, corpID)
	if err != nil {
		return nil, err
	}
	return &App{cb: cb, in: in, api: api, crypt: c, guard: callback.NewGuard(cb.Now), repliers: map[string]*appReplier{}}, nil
}

func (a *App) ServeHTTP(w http.ResponseWriter, r *http.Request) {
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
		if err := a.receive(w, r); err != nil {
			a.in.Refuse(w, r, err)
			return
		}
		w.WriteHeader(http.StatusOK)
	default:
		w.Header().Set("Allow", "GET, POST")
		http.Error(w, http.StatusText(http.StatusMethodNotAllowed), http.StatusMethodNotAllowed)
	}
}

func (a *App) receive(w http.ResponseWriter, r *http.Request) error {
	body, err := callback.ReadBody(w, r, a.cb.BodyLimit())
	if err != nil {
		return err
	}
	var env appEnvelope
	if err := parseAppXML(body, &env); err != nil {
		return err
	}
	if env.Encrypt == "" {
		return fmt.Errorf("%w: no Encrypt element", callback.ErrMalformed)
	}
	plain, err := openSigned(a.crypt, a.guard, r, env.Encrypt)
	if err != nil {
		return err
	}
	var m appMessage
	if err := parseAppXML(plain, &m); err != nil {
		return err
	}
	if m.FromUserName == "" {
		return fmt.Errorf("%w: no FromUserName", callback.ErrMalformed)
	}
	msg := chat.Message{ID: m.MsgID, User: m.FromUserName, Text: m.Content}
	switch m.MsgType {
	case "text":
		err = a.in.Deliver(msg, a.replier(m.FromUserName))
	case "event":
		// Entering the app, menu clicks and the like need no answer.
	default:
		err = a.in.Unsupported(msg, a.replier(m.FromUserName))
	}
	return err
}

// replier is the user's: every reply to them goes through message/send.
func (a *App) replier(callbackID string) *appReplier {
	a.mu.Lock()
	defer a.mu.Unlock()
	r, ok := a.repliers[callbackID]
	if !ok {
		r = &appReplier{api: a.api, callbackID: callbackID}
		a.repliers[callbackID] = r
	}
	return r
}

// appReplier sends to one user as the application. The user's id is
// converted (once, then cached) when the first reply goes out, not while
// the callback waits.
type appReplier struct {
	api        *API
	callbackID string
}

// CommitsOnSend says Reply calls the context's commit (chatapi.WithCommit)
// when the message's turn under the rate limits has come.
func (*appReplier) CommitsOnSend() {}

func (r *appReplier) Reply(ctx context.Context, text string, _ bool) error {
	// The message's commit waits for message/send (chatapi.WithCommit).
	userID, err := r.api.UserID(chatapi.WithoutCommit(ctx), r.callbackID)
	if err != nil {
		return err
	}
	return r.api.SendText(ctx, userID, text)
}
