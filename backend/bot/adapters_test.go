package bot_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"hermes/backend/config"
	"hermes/backend/event"
	"hermes/backend/webhook"
	"hermes/backend/wecom"
	"hermes/backend/wecom/wecomtest"
)

// aibotCall posts an intelligent bot callback (JSON, empty receiver id) and
// returns the decrypted stream reply.
func aibotCall(t *testing.T, h *harness, crypt *wecom.Crypter, payload string) (id string, finish bool, content string) {
	t.Helper()
	ts, nonce := strconv.FormatInt(time.Now().Unix(), 10), wecomtest.Nonce()
	enc, sig, err := crypt.Seal([]byte(payload), ts, nonce)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(map[string]string{"encrypt": enc})
	q := url.Values{"msg_signature": {sig}, "timestamp": {ts}, "nonce": {nonce}}
	resp, err := http.Post(h.srv.URL+"/callback?"+q.Encode(), "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("aibot callback: status %d", resp.StatusCode)
	}
	var reply struct {
		Encrypt   string `json:"encrypt"`
		Signature string `json:"msgsignature"`
		Timestamp int64  `json:"timestamp"`
		Nonce     string `json:"nonce"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&reply); err != nil {
		t.Fatal(err)
	}
	plain, err := crypt.Open(reply.Signature, strconv.FormatInt(reply.Timestamp, 10), reply.Nonce, reply.Encrypt)
	if err != nil {
		t.Fatalf("the reply does not verify: %v", err)
	}
	var p struct {
		MsgType string `json:"msgtype"`
		Stream  struct {
			ID      string `json:"id"`
			Finish  bool   `json:"finish"`
			Content string `json:"content"`
		} `json:"stream"`
	}
	if err := json.Unmarshal(plain, &p); err != nil || p.MsgType != "stream" {
		t.Fatalf("reply %s: %v", plain, err)
	}
	return p.Stream.ID, p.Stream.Finish, p.Stream.Content
}

func TestBot_WeComIntelligentBotStreams(t *testing.T) {
	model := echoModel(t)
	cfg := config.WithBotKeys(config.Bot{Platform: wecom.BotName, WebhookSecret: testToken}, wecom.Keys{EncodingAESKey: testAESKey})
	h := newHarness(t, "", model, cfg)
	crypt, err := wecom.NewCrypter(testToken, testAESKey, "")
	if err != nil {
		t.Fatal(err)
	}
	finished := h.bus.Subscribe(64, func(e event.Event) bool { return e.Type == event.RunFinished })
	msg := `{"msgid":"aibot-1","aibotid":"AIBOTID","chattype":"group","from":{"userid":"zhangsan"},"msgtype":"text","text":{"content":"@Hermes summarise the notes"}}`
	id, finish, _ := aibotCall(t, h, crypt, msg)
	if id == "" || finish {
		t.Fatalf("first answer: stream %q finish=%v; want an open stream", id, finish)
	}
	// A resend of the message answers with the same stream.
	if again, _, _ := aibotCall(t, h, crypt, msg); again != id {
		t.Fatalf("a resend opened stream %q, want %q", again, id)
	}
	<-finished.C
	// Shutdown waits for the replies queued, so the stream is complete.
	if err := h.bot.Shutdown(t.Context()); err != nil {
		t.Fatal(err)
	}
	refresh := `{"msgid":"aibot-2","msgtype":"stream","stream":{"id":"` + id + `"}}`
	_, finish, content := aibotCall(t, h, crypt, refresh)
	if !finish || content != "answer to: summarise the notes" {
		t.Fatalf("refresh: finish=%v content %q", finish, content)
	}
	if n := len(model.Requests()); n != 1 {
		t.Fatalf("%d model requests, want 1", n)
	}
}

func TestBot_GenericWebhook(t *testing.T) {
	model := echoModel(t)
	type received struct {
		reply webhook.Reply
		ok    bool
	}
	replies := make(chan received, 4)
	bridge := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var rep webhook.Reply
		if err := json.Unmarshal(body, &rep); err != nil {
			t.Error(err)
		}
		sig := webhook.Sign(testToken, r.Header.Get(webhook.HeaderTimestamp), r.Header.Get(webhook.HeaderNonce), body)
		replies <- received{rep, sig == r.Header.Get(webhook.HeaderSignature)}
	}))
	t.Cleanup(bridge.Close)
	cfg := config.WithBotKeys(config.Bot{Platform: webhook.Name, WebhookSecret: testToken}, webhook.Keys{ReplyURL: bridge.URL})
	h := newHarness(t, "", model, cfg)

	post := func(body, secret string, ts time.Time) int {
		nonce := make([]byte, 8)
		rand.Read(nonce)
		n, stamp := hex.EncodeToString(nonce), strconv.FormatInt(ts.Unix(), 10)
		req, _ := http.NewRequest(http.MethodPost, h.srv.URL+"/callback", strings.NewReader(body))
		req.Header.Set(webhook.HeaderTimestamp, stamp)
		req.Header.Set(webhook.HeaderNonce, n)
		req.Header.Set(webhook.HeaderSignature, webhook.Sign(secret, stamp, n, []byte(body)))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	good := `{"message_id":"w1","user":"alice","text":"hello"}`
	cases := []struct {
		name, body, secret string
		ts                 time.Time
		want               int
	}{
		{"wrong key", good, "not-the-secret", time.Now(), http.StatusForbidden},
		{"stale", good, testToken, time.Now().Add(-time.Hour), http.StatusForbidden},
		{"not JSON", "hello", testToken, time.Now(), http.StatusBadRequest},
		{"no user", `{"text":"hi"}`, testToken, time.Now(), http.StatusBadRequest},
		{"good", good, testToken, time.Now(), http.StatusAccepted},
		{"resent", good, testToken, time.Now(), http.StatusAccepted},
	}
	for _, tc := range cases {
		if got := post(tc.body, tc.secret, tc.ts); got != tc.want {
			t.Errorf("%s: status %d, want %d", tc.name, got, tc.want)
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	select {
	case r := <-replies:
		if !r.ok || r.reply.User != "alice" || !r.reply.Final || r.reply.Text != "answer to: hello" {
			t.Fatalf("reply %+v (signature ok: %v)", r.reply, r.ok)
		}
	case <-ctx.Done():
		t.Fatal("no reply reached reply_url")
	}
	h.close()
	if n := len(model.Requests()); n != 1 {
		t.Fatalf("%d model requests, want 1: the resend must not run again", n)
	}
}

// A stream's reply holds the notices, then the text as it streams, then the
// answer; the biggest reply is cut to WeCom's limit.
func TestBot_StreamReplyPayload(t *testing.T) {
	model := echoModel(t)
	cfg := config.WithBotKeys(config.Bot{Platform: wecom.BotName, WebhookSecret: testToken}, wecom.Keys{EncodingAESKey: testAESKey})
	h := newHarness(t, "", model, cfg)
	crypt, _ := wecom.NewCrypter(testToken, testAESKey, "")
	finished := h.bus.Subscribe(64, func(e event.Event) bool { return e.Type == event.RunFinished })
	id, _, _ := aibotCall(t, h, crypt, `{"msgid":"big","from":{"userid":"u"},"msgtype":"text","text":{"content":"`+strings.Repeat("长", 9000)+`"}}`)
	<-finished.C
	if err := h.bot.Shutdown(t.Context()); err != nil {
		t.Fatal(err)
	}
	_, finish, content := aibotCall(t, h, crypt, `{"msgid":"r","msgtype":"stream","stream":{"id":"`+id+`"}}`)
	if !finish || len(content) > 20480 || !strings.HasPrefix(content, "answer to: 长") || !strings.HasSuffix(content, "…") {
		t.Fatalf("finish=%v, %d bytes", finish, len(content))
	}
}
