package feishu_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"hermes/backend/callback"
	"hermes/backend/chat"
	"hermes/backend/feishu"
	"hermes/backend/feishu/feishutest"
)

const (
	appID      = "cli_a1b2c3d4e5f6"
	appSecret  = "app-secret-77f1"
	verifyTok  = "verify-token-3c9e"
	encryptKey = "encrypt-key-5d2a"
)

// inbox is the bot as the adapter meets it: it keeps what it is handed and
// refuses as hermes bot does (403 for a signature, 400 for a malformed body).
type inbox struct {
	mu          sync.Mutex
	delivered   []chat.Message
	unsupported []chat.Message
	repliers    []chat.Replier
}

func (in *inbox) Deliver(m chat.Message, r chat.Replier) error {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.delivered = append(in.delivered, m)
	in.repliers = append(in.repliers, r)
	return nil
}

func (in *inbox) Unsupported(m chat.Message, r chat.Replier) error {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.unsupported = append(in.unsupported, m)
	return nil
}

func (in *inbox) Refuse(w http.ResponseWriter, _ *http.Request, err error) {
	status := http.StatusInternalServerError
	switch {
	case errors.Is(err, callback.ErrSignature), errors.Is(err, callback.ErrStale):
		status = http.StatusForbidden
	case errors.Is(err, callback.ErrMalformed):
		status = http.StatusBadRequest
	}
	http.Error(w, http.StatusText(status), status)
}

func (in *inbox) messages() []chat.Message {
	in.mu.Lock()
	defer in.mu.Unlock()
	return append([]chat.Message(nil), in.delivered...)
}

// adapter serves an adapter with key on loopback and returns its sender.
func adapter(t *testing.T, key string, api *feishu.API) (*inbox, *feishutest.Events) {
	in := &inbox{}
	a := feishu.NewAdapter(feishu.Callback{
		VerificationToken: verifyTok, EncryptKey: key,
		BodyLimit: func() int { return 64 << 10 }, Now: time.Now,
	}, api, in)
	srv := httptest.NewServer(a)
	t.Cleanup(srv.Close)
	return in, feishutest.NewEvents(srv.URL, verifyTok, key)
}

func TestAdapter_URLVerification(t *testing.T) {
	for _, key := range []string{"", encryptKey} {
		_, ev := adapter(t, key, nil)
		status, body, err := ev.VerifyURL("ajls384kdjx98XX")
		if err != nil || status != http.StatusOK {
			t.Fatalf("key %q: %d %v", key, status, err)
		}
		var got struct{ Challenge string }
		if err := json.Unmarshal(body, &got); err != nil || got.Challenge != "ajls384kdjx98XX" {
			t.Fatalf("key %q: answered %s (%v)", key, body, err)
		}
		ev.Token = "another app's token"
		if status, _, _ := ev.VerifyURL("x"); status != http.StatusForbidden {
			t.Fatalf("key %q: a wrong token answered %d, want 403", key, status)
		}
	}
}

func TestAdapter_TextMessages(t *testing.T) {
	in, ev := adapter(t, encryptKey, nil)
	send := func(m feishutest.Text) int {
		t.Helper()
		status, err := ev.Send(m)
		if err != nil {
			t.Fatal(err)
		}
		return status
	}
	if s := send(feishutest.Text{EventID: "ev1", MessageID: "om_1", OpenID: "ou_zhang", ChatID: "oc_p2p", Text: "say hello"}); s != 200 {
		t.Fatalf("p2p: %d", s)
	}
	if s := send(feishutest.Text{EventID: "ev2", MessageID: "om_2", OpenID: "ou_zhang", ChatID: "oc_team", ChatType: "group", Text: "team talk"}); s != 200 {
		t.Fatalf("group without a mention: %d", s)
	}
	if s := send(feishutest.Text{EventID: "ev3", MessageID: "om_3", OpenID: "ou_li", ChatID: "oc_team", ChatType: "group",
		Text: "@_user_1 /停止", Mentions: []string{"@_user_1"}}); s != 200 {
		t.Fatalf("group with a mention: %d", s)
	}
	got := in.messages()
	want := []chat.Message{{ID: "ev1", User: "ou_zhang", Text: "say hello"}, {ID: "ev3", User: "ou_li@oc_team", Text: "/停止"}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("delivered %+v, want %+v", got, want)
	}
}

func TestAdapter_RefusesWhatFeishuDidNotSend(t *testing.T) {
	in, ev := adapter(t, encryptKey, nil)
	msg := ev.JSON(feishutest.Text{EventID: "ev1", MessageID: "om_1", OpenID: "ou_zhang", Text: "rm -rf"})
	cases := []struct {
		name   string
		edit   func(*http.Request)
		status int
	}{
		{"bad signature", func(r *http.Request) {
			// One digit changed, whatever it was: "00" put over the first two
			// left one signature in 256 as it was.
			sig := []byte(r.Header.Get(feishu.HeaderSignature))
			if sig[0] == '0' {
				sig[0] = '1'
			} else {
				sig[0] = '0'
			}
			r.Header.Set(feishu.HeaderSignature, string(sig))
		}, 403},
		{"unsigned", func(r *http.Request) { r.Header.Del(feishu.HeaderSignature) }, 403},
		{"another nonce than signed", func(r *http.Request) { r.Header.Set(feishu.HeaderNonce, "other") }, 403},
	}
	for _, tc := range cases {
		req, err := ev.Request(msg, time.Now(), feishutest.Nonce())
		if err != nil {
			t.Fatal(err)
		}
		tc.edit(req)
		if status, _, err := ev.Do(req); err != nil || status != tc.status {
			t.Errorf("%s: %d %v, want %d", tc.name, status, err, tc.status)
		}
	}
	// Signed, but an hour old: a capture replayed later.
	req, _ := ev.Request(msg, time.Now().Add(-time.Hour), feishutest.Nonce())
	if status, _, _ := ev.Do(req); status != 403 {
		t.Errorf("stale: %d, want 403", status)
	}
	// Signed with the key, but the token inside is another app's.
	other := feishutest.NewEvents(ev.URL, "another app's token", encryptKey)
	if status, _ := other.Send(feishutest.Text{EventID: "ev9", MessageID: "om_9", OpenID: "ou_zhang", Text: "hi"}); status != 403 {
		t.Errorf("wrong token: %d, want 403", status)
	}
	// Plain JSON to an app with a key.
	plain := feishutest.NewEvents(ev.URL, verifyTok, "")
	if status, _ := plain.Send(feishutest.Text{EventID: "ev8", MessageID: "om_8", OpenID: "ou_zhang", Text: "hi"}); status != 403 {
		t.Errorf("unencrypted: %d, want 403", status)
	}
	if got := in.messages(); len(got) != 0 {
		t.Fatalf("refused events were delivered: %+v", got)
	}
}

func TestAdapter_PlainEventsNeedTheToken(t *testing.T) {
	in, ev := adapter(t, "", nil)
	if status, _ := ev.Send(feishutest.Text{EventID: "ev1", MessageID: "om_1", OpenID: "ou_zhang", Text: "hi"}); status != 200 {
		t.Fatalf("plain event: %d", status)
	}
	ev.Token = "guess"
	if status, _ := ev.Send(feishutest.Text{EventID: "ev2", MessageID: "om_2", OpenID: "ou_zhang", Text: "hi"}); status != 403 {
		t.Fatalf("wrong token: %d, want 403", status)
	}
	if got := in.messages(); len(got) != 1 {
		t.Fatalf("delivered %+v", got)
	}
}

func TestAPI_RepliesWithACachedTokenRefreshedWhenExpired(t *testing.T) {
	srv := feishutest.NewServer(t, appID, appSecret, 0)
	api := feishu.NewAPI(feishu.APIOptions{Base: srv.URL, AppID: appID, AppSecret: appSecret, Rate: 50,
		Backoff: func(int) time.Duration { return time.Millisecond }})
	in, ev := adapter(t, encryptKey, api)
	ctx := t.Context()
	for i := range 3 {
		id := "ev" + strconv.Itoa(i)
		if status, _ := ev.Send(feishutest.Text{EventID: id, MessageID: "om_" + id, OpenID: "ou_zhang", Text: "hi"}); status != 200 {
			t.Fatal(status)
		}
	}
	in.mu.Lock()
	rs := in.repliers
	in.mu.Unlock()
	for _, r := range rs[:2] {
		if err := r.Reply(ctx, "short answer", true); err != nil {
			t.Fatal(err)
		}
	}
	if st := srv.Stats(); st.Tokens != 1 || st.Replies != 2 {
		t.Fatalf("two replies took %+v, want one token", st)
	}
	srv.ExpireTokens()
	if err := rs[2].Reply(ctx, "after expiry", true); err != nil {
		t.Fatalf("an expired token was not refreshed: %v", err)
	}
	if st := srv.Stats(); st.Tokens != 2 || st.Replies != 3 {
		t.Fatalf("after expiry: %+v", st)
	}
	got := srv.Replies()
	if got[2].To != "om_ev2" || got[2].MsgType != "text" || got[2].Text() != "after expiry" {
		t.Fatalf("the reply went as %+v", got[2])
	}
}

func TestAPI_BacksOffWhenRateLimited(t *testing.T) {
	srv := feishutest.NewServer(t, appID, appSecret, 0)
	var waits []int
	api := feishu.NewAPI(feishu.APIOptions{Base: srv.URL, AppID: appID, AppSecret: appSecret, Rate: 50,
		Backoff: func(n int) time.Duration { waits = append(waits, n); return time.Millisecond }})
	if err := api.Check(t.Context()); err != nil {
		t.Fatal(err)
	}
	srv.Limit(2)
	srv.FailReplies(230020) // too many messages to one chat
	if err := api.Reply(t.Context(), "om_1", "text", `{"text":"hi"}`); err != nil {
		t.Fatal(err)
	}
	if st := srv.Stats(); st.OverLimit != 2 || st.Replies != 1 || len(waits) != 3 {
		t.Fatalf("stats %+v after %d backoffs", st, len(waits))
	}
	// A wrong secret is said at once, without the secret.
	bad := feishu.NewAPI(feishu.APIOptions{Base: srv.URL, AppID: appID, AppSecret: "wrong-secret-xyz"})
	err := bad.Check(t.Context())
	var apiErr *feishu.APIError
	if !errors.As(err, &apiErr) || apiErr.Code != feishutest.CodeAppSecretInvalid {
		t.Fatalf("a wrong secret: %v", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := bad.Check(ctx); err == nil {
		t.Fatal("a cancelled check succeeded")
	}
}

func TestAdapter_RichTextIsReadAndPicturesAreNot(t *testing.T) {
	in, ev := adapter(t, "", nil)
	post := func(id, typ, content string) {
		t.Helper()
		raw := ev.JSON(feishutest.Text{EventID: id, MessageID: "om_" + id, OpenID: "ou_zhang", ChatID: "oc_p2p"})
		var body map[string]any
		if err := json.Unmarshal(raw, &body); err != nil {
			t.Fatal(err)
		}
		msg := body["event"].(map[string]any)["message"].(map[string]any)
		msg["message_type"], msg["content"] = typ, content
		raw, _ = json.Marshal(body)
		req, _ := ev.Request(raw, time.Now(), feishutest.Nonce())
		if status, _, err := ev.Do(req); err != nil || status != 200 {
			t.Fatalf("%s: %d %v", typ, status, err)
		}
	}
	// The shape of a received post, as Feishu's message content docs show it.
	post("p1", "post", `{"title":"Plan","content":[[{"tag":"text","text":"fix "},{"tag":"a","text":"the build","href":"https://ci.example.com"}],[{"tag":"at","user_id":"@_user_1","user_name":"Hermes"},{"tag":"text","text":" today"}]]}`)
	post("p2", "image", `{"image_key":"img_v2_041b28e3"}`)
	got := in.messages()
	if len(got) != 1 || got[0].Text != "Plan\nfix the build\n today" {
		t.Fatalf("delivered %+v", got)
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if len(in.unsupported) != 1 || in.unsupported[0].ID != "p2" {
		t.Fatalf("the picture went as %+v", in.unsupported)
	}
}

func TestAdapter_GroupMessagesMustMentionTheBot(t *testing.T) {
	srv := feishutest.NewServer(t, appID, appSecret, 0)
	api := feishu.NewAPI(feishu.APIOptions{Base: srv.URL, AppID: appID, AppSecret: appSecret, Rate: 50})
	in, ev := adapter(t, encryptKey, api)
	group := func(id string, bot, others []string) {
		t.Helper()
		if status, err := ev.Send(feishutest.Text{EventID: id, MessageID: "om_" + id, OpenID: "ou_li", ChatID: "oc_team",
			ChatType: "group", Text: "@_user_1 @_user_2 look at this", Mentions: bot, Others: others}); err != nil || status != 200 {
			t.Fatalf("%s: %d %v", id, status, err)
		}
	}
	// Before the bot's open_id is known, any mention counts.
	group("g1", nil, []string{"@_user_1"})
	if err := api.Check(t.Context()); err != nil {
		t.Fatal(err)
	}
	if api.BotOpenID() != feishutest.BotOpenID {
		t.Fatalf("Check learnt the bot's open_id as %q", api.BotOpenID())
	}
	group("g2", nil, []string{"@_user_1", "@_user_2"})
	group("g3", []string{"@_user_2"}, []string{"@_user_1"})
	got := in.messages()
	if len(got) != 2 || got[0].ID != "g1" || got[1].ID != "g3" || got[1].Text != "look at this" {
		t.Fatalf("delivered %+v, want g1 and g3", got)
	}
}

func TestReplier_GoesToTheChatWhenTheMessageWasWithdrawn(t *testing.T) {
	srv := feishutest.NewServer(t, appID, appSecret, 0)
	api := feishu.NewAPI(feishu.APIOptions{Base: srv.URL, AppID: appID, AppSecret: appSecret, Rate: 50})
	in, ev := adapter(t, encryptKey, api)
	if status, _ := ev.Send(feishutest.Text{EventID: "ev1", MessageID: "om_1", OpenID: "ou_zhang", ChatID: "oc_p2p", Text: "hi"}); status != 200 {
		t.Fatal(status)
	}
	srv.Withdraw("om_1")
	in.mu.Lock()
	r := in.repliers[0]
	in.mu.Unlock()
	if err := r.Reply(t.Context(), "still here", true); err != nil {
		t.Fatal(err)
	}
	if got := srv.Replies(); len(got) != 1 || got[0].To != "chat:oc_p2p" || got[0].Text() != "still here" {
		t.Fatalf("sent %+v", got)
	}
}

// An event is refused when the time it was created, its header.create_time
// (milliseconds; ts, in seconds, in an event of schema 1.0), is more than
// five minutes from this machine's clock, with an Encrypt Key or without:
// without one nothing else dates an event, and a year-old event that
// carries the token must not run a task.
func TestAdapter_RefusesStaleEvents(t *testing.T) {
	for _, key := range []string{"", encryptKey} {
		t.Run(map[string]string{"": "plain", encryptKey: "encrypted"}[key], func(t *testing.T) {
			in, ev := adapter(t, key, nil)
			post := func(name string, raw []byte, want int) {
				t.Helper()
				// The request itself is sent now: an encrypted one is
				// freshly signed, only the event inside is old.
				req, err := ev.Request(raw, time.Now(), feishutest.Nonce())
				if err != nil {
					t.Fatal(err)
				}
				if status, _, err := ev.Do(req); err != nil || status != want {
					t.Errorf("%s: %d %v, want %d", name, status, err, want)
				}
			}
			created := func(id string, d time.Duration) []byte {
				ev.Now = func() time.Time { return time.Now().Add(d) }
				defer func() { ev.Now = nil }()
				return ev.JSON(feishutest.Text{EventID: id, MessageID: "om_" + id, OpenID: "ou_zhang", ChatID: "oc_p2p", Text: "task " + id})
			}
			post("a year old", created("old", -365*24*time.Hour), http.StatusForbidden)
			post("six minutes old", created("six", -6*time.Minute), http.StatusForbidden)
			post("six minutes ahead", created("ahead", 6*time.Minute), http.StatusForbidden)
			post("four minutes old", created("four", -4*time.Minute), http.StatusOK)

			var undated map[string]any
			if err := json.Unmarshal(created("undated", 0), &undated); err != nil {
				t.Fatal(err)
			}
			delete(undated["header"].(map[string]any), "create_time")
			raw, _ := json.Marshal(undated)
			post("no create_time", raw, http.StatusBadRequest)

			v1 := func(at time.Time) []byte {
				raw, _ := json.Marshal(map[string]any{
					"ts": fmt.Sprintf("%d.%07d", at.Unix(), at.Nanosecond()/100), "uuid": "bc447199585340d1f3728d26b1c0297a",
					"token": verifyTok, "type": "event_callback",
					"event": map[string]any{"type": "app_open", "app_id": "cli_feishutest"},
				})
				return raw
			}
			post("schema 1.0, a year old", v1(time.Now().AddDate(-1, 0, 0)), http.StatusForbidden)
			post("schema 1.0, now", v1(time.Now()), http.StatusOK)

			if got := in.messages(); len(got) != 1 || got[0].ID != "four" {
				t.Fatalf("delivered %+v, want only the event four minutes old", got)
			}
		})
	}
}
