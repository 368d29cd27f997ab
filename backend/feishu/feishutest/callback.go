package feishutest

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"time"

	"hermes/backend/feishu"
)

// Events posts what Feishu posts to an app's event subscription URL:
// events carrying the verification token, encrypted and signed when the
// app has an Encrypt Key.
type Events struct {
	URL    string // the bot's callback URL
	Token  string // the verification token
	crypt  *feishu.Crypter
	Client *http.Client
	// Now is the time stamped on callbacks; nil means time.Now.
	Now func() time.Time
}

// NewEvents returns a sender for the bot at url; encryptKey "" sends plain
// JSON, unsigned.
func NewEvents(url, token, encryptKey string) *Events {
	e := &Events{URL: url, Token: token, Client: &http.Client{Timeout: 10 * time.Second}}
	if encryptKey != "" {
		e.crypt = feishu.NewCrypter(encryptKey)
	}
	return e
}

func (e *Events) now() time.Time {
	if e.Now != nil {
		return e.Now()
	}
	return time.Now()
}

// Nonce is a fresh random nonce.
func Nonce() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// Text is an im.message.receive_v1 event: a text message from the user
// open_id in chat (chatType "p2p" or "group"). Mentions are the keys
// ("@_user_1") that stand for the bot in the text, Others those that stand
// for other people.
type Text struct {
	EventID, MessageID, OpenID, ChatID, ChatType, Text string
	Mentions, Others                                   []string
}

// JSON is the event's plaintext, as Feishu's documentation shows it.
func (e *Events) JSON(t Text) []byte {
	content, _ := json.Marshal(map[string]string{"text": t.Text})
	mentions := []map[string]any{}
	for _, k := range t.Mentions {
		mentions = append(mentions, map[string]any{
			"key": k, "name": "Hermes", "tenant_key": "736588c9260f175d",
			"id": map[string]string{"open_id": BotOpenID, "union_id": "on_bot", "user_id": ""},
		})
	}
	for _, k := range t.Others {
		mentions = append(mentions, map[string]any{
			"key": k, "name": "张三", "tenant_key": "736588c9260f175d",
			"id": map[string]string{"open_id": "ou_other" + k[2:], "union_id": "on_other", "user_id": "zhangsan"},
		})
	}
	chatType := t.ChatType
	if chatType == "" {
		chatType = "p2p"
	}
	ev := map[string]any{
		"schema": "2.0",
		"header": map[string]any{
			"event_id": t.EventID, "token": e.Token, "event_type": feishu.EventMessageReceive,
			"create_time": strconv.FormatInt(e.now().UnixMilli(), 10), "tenant_key": "736588c9260f175d", "app_id": "cli_feishutest",
		},
		"event": map[string]any{
			"sender": map[string]any{
				"sender_id":   map[string]string{"open_id": t.OpenID, "union_id": "on_" + t.OpenID, "user_id": ""},
				"sender_type": "user", "tenant_key": "736588c9260f175d",
			},
			"message": map[string]any{
				"message_id": t.MessageID, "root_id": "", "parent_id": "", "create_time": strconv.FormatInt(e.now().UnixMilli(), 10),
				"chat_id": t.ChatID, "chat_type": chatType, "message_type": "text", "content": string(content), "mentions": mentions,
			},
		},
	}
	b, _ := json.Marshal(ev)
	return b
}

// Request builds the POST of plaintext as Feishu sends it: encrypted and
// signed at ts with nonce when there is a key, else as it is.
func (e *Events) Request(plaintext []byte, ts time.Time, nonce string) (*http.Request, error) {
	body := plaintext
	var stamp, sig string
	if e.crypt != nil {
		body, _ = json.Marshal(map[string]string{"encrypt": e.crypt.Encrypt(plaintext)})
		stamp = strconv.FormatInt(ts.Unix(), 10)
		sig = e.crypt.Sign(stamp, nonce, body)
	}
	req, err := http.NewRequest(http.MethodPost, e.URL, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	if sig != "" {
		req.Header.Set(feishu.HeaderTimestamp, stamp)
		req.Header.Set(feishu.HeaderNonce, nonce)
		req.Header.Set(feishu.HeaderSignature, sig)
	}
	return req, nil
}

// Send posts a text event and returns the HTTP status.
func (e *Events) Send(t Text) (int, error) {
	req, err := e.Request(e.JSON(t), e.now(), Nonce())
	if err != nil {
		return 0, err
	}
	status, _, err := e.Do(req)
	return status, err
}

// Do sends a request and returns its status and body.
func (e *Events) Do(req *http.Request) (int, []byte, error) {
	resp, err := e.Client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, body, err
}

// VerifyURL sends the URL verification with challenge, encrypted (never
// signed) when there is a key, and returns the status and body.
func (e *Events) VerifyURL(challenge string) (int, []byte, error) {
	plain, _ := json.Marshal(map[string]string{"challenge": challenge, "token": e.Token, "type": "url_verification"})
	body := plain
	if e.crypt != nil {
		body, _ = json.Marshal(map[string]string{"encrypt": e.crypt.Encrypt(plain)})
	}
	req, err := http.NewRequest(http.MethodPost, e.URL, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	return e.Do(req)
}
