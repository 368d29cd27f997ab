// Package webhook is the generic chat platform of hermes bot ([bot]
// platform "webhook"): a bridge posts each message as JSON signed with
// HMAC-SHA256, and the bot posts its replies, signed the same way, to
// reply_url. It bridges chat platforms Hermes has no package for.
package webhook

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"hermes/backend/callback"
	"hermes/backend/chat"
	"hermes/backend/chatapi"
	"hermes/backend/config"
)

// Name is the platform's name, as [bot] platform picks it.
const Name = "webhook"

// Keys are the webhook's own keys of [bot]; webhook_secret, its HMAC key,
// is [bot]'s.
type Keys struct {
	// ReplyURL is where the bot posts its replies.
	ReplyURL string `toml:"reply_url"`
}

func init() {
	chat.Register(chat.Platform{
		Config: config.BotPlatform{
			Name: Name, About: config.Doc{EN: "a generic JSON webhook signed with HMAC-SHA256", ZH: "以 HMAC-SHA256 签名的通用 JSON 回调"},
			Keys: Keys{}, Ready: ready,
			Docs: map[string]config.Doc{
				"reply_url": {EN: "Where the generic webhook posts its replies.", ZH: "通用回调发送回复的地址。"},
			},
			Validate: func(b config.Bot) []error {
				return []error{config.CheckURL("reply_url", config.BotKeys[Keys](b).ReplyURL)}
			},
		},
		New: func(env chat.Env) (chat.Adapter, error) { return newWebhook(env), nil },
	})
}

func ready(b config.Bot) []error {
	return []error{b.Missing("webhook_secret", b.WebhookSecret), b.Missing("reply_url", config.BotKeys[Keys](b).ReplyURL)}
}

// The generic webhook's headers. The signature is
// "sha256=" + hex(HMAC-SHA256(secret, timestamp + "\n" + nonce + "\n" + body)),
// both ways: on the messages the platform posts, and on the replies the bot
// posts to reply_url.
const (
	HeaderTimestamp = "X-Hermes-Timestamp"
	HeaderNonce     = "X-Hermes-Nonce"
	HeaderSignature = "X-Hermes-Signature"
)

// Message is the JSON a bridge posts to the webhook.
type Message struct {
	MessageID string `json:"message_id"`
	User      string `json:"user"`
	Text      string `json:"text"`
}

// Reply is the JSON the bot posts to reply_url. Final marks the end of
// what the bot has to say about a message (a task's answer).
type Reply struct {
	User  string `json:"user"`
	Text  string `json:"text"`
	Final bool   `json:"final"`
}

// Sign is the signature of body sent at timestamp with nonce.
func Sign(secret, timestamp, nonce string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(timestamp + "\n" + nonce + "\n"))
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// webhook is the adapter.
type webhook struct {
	env      chat.Env
	secret   string
	replyURL string
	guard    *callback.Guard

	mu       sync.Mutex
	repliers map[string]*webhookReplier
}

func newWebhook(env chat.Env) *webhook {
	return &webhook{
		env: env, secret: env.Config.WebhookSecret, replyURL: config.BotKeys[Keys](env.Config).ReplyURL,
		guard: callback.NewGuard(env.Now), repliers: map[string]*webhookReplier{},
	}
}

// ReplierTo is the replier of user, wherever their message came: a
// clustered bot answers on one replica a message another one received.
func (h *webhook) ReplierTo(user, _ string) chat.Replier { return h.replier(user) }

var _ chat.Replicated = (*webhook)(nil)

func (h *webhook) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		http.Error(w, http.StatusText(http.StatusMethodNotAllowed), http.StatusMethodNotAllowed)
		return
	}
	if err := h.receive(w, r); err != nil {
		h.env.Inbox.Refuse(w, r, err)
		return
	}
	w.WriteHeader(http.StatusAccepted)
}

func (h *webhook) receive(w http.ResponseWriter, r *http.Request) error {
	body, err := callback.ReadBody(w, r, h.env.BodyLimit())
	if err != nil {
		return err
	}
	ts, nonce, sig := r.Header.Get(HeaderTimestamp), r.Header.Get(HeaderNonce), r.Header.Get(HeaderSignature)
	if ts == "" || nonce == "" || sig == "" {
		return fmt.Errorf("%w: %s, %s and %s are required", callback.ErrMalformed, HeaderTimestamp, HeaderNonce, HeaderSignature)
	}
	if !hmac.Equal([]byte(sig), []byte(Sign(h.secret, ts, nonce, body))) {
		return callback.ErrSignature
	}
	if err := h.guard.Check(ts, nonce); err != nil {
		return err
	}
	var m Message
	if err := json.Unmarshal(body, &m); err != nil {
		return fmt.Errorf("%w: JSON: %v", callback.ErrMalformed, err)
	}
	if m.User == "" || strings.TrimSpace(m.Text) == "" {
		return fmt.Errorf("%w: user and text are required", callback.ErrMalformed)
	}
	return h.env.Inbox.Deliver(chat.Message{ID: m.MessageID, User: m.User, Text: m.Text}, h.replier(m.User))
}

func (h *webhook) replier(user string) *webhookReplier {
	h.mu.Lock()
	defer h.mu.Unlock()
	r, ok := h.repliers[user]
	if !ok {
		r = &webhookReplier{h: h, user: user}
		h.repliers[user] = r
	}
	return r
}

// webhookReplier posts replies to one user to reply_url.
type webhookReplier struct {
	h    *webhook
	user string
}

// replyAttempts bounds the tries of one reply.
const replyAttempts = 4

// CommitsOnSend says Reply calls the context's commit (chatapi.WithCommit)
// just before the reply's first post.
func (*webhookReplier) CommitsOnSend() {}

func (r *webhookReplier) Reply(ctx context.Context, text string, final bool) error {
	body, err := json.Marshal(Reply{User: r.user, Text: text, Final: final})
	if err != nil {
		return err
	}
	if err := chatapi.Commit(ctx); err != nil {
		return err
	}
	wait := 200 * time.Millisecond
	for n := 1; ; n++ {
		retry, err := r.post(ctx, body)
		if err == nil || !retry || n == replyAttempts {
			return err
		}
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		}
		wait *= 2
	}
}

// post sends one reply and says whether a failure is worth another try.
func (r *webhookReplier) post(ctx context.Context, body []byte) (retry bool, err error) {
	raw := make([]byte, 12)
	rand.Read(raw)
	nonce := hex.EncodeToString(raw)
	ts := strconv.FormatInt(r.h.env.Now().Unix(), 10)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.h.replyURL, bytes.NewReader(body))
	if err != nil {
		return false, fmt.Errorf("reply to %s: %w", r.user, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(HeaderTimestamp, ts)
	req.Header.Set(HeaderNonce, nonce)
	req.Header.Set(HeaderSignature, Sign(r.h.secret, ts, nonce, body))
	resp, err := r.h.env.HTTP.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // reply_url may carry a bridge's own token
		}
		return true, fmt.Errorf("reply to %s: %w", r.user, err)
	}
	// Read to its end (bounded), so that the connection is used again.
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	_ = resp.Body.Close()
	if resp.StatusCode/100 == 2 {
		return false, nil
	}
	return resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests,
		fmt.Errorf("reply to %s: reply_url answered %s", r.user, resp.Status)
}
