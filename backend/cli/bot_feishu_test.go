package cli_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hermes/backend/cli"
	"hermes/backend/feishu"
	"hermes/backend/feishu/feishutest"
	"hermes/backend/llm/llmtest"
)

const (
	feishuAppID      = "cli_a1b2c3d4e5f60718"
	feishuAppSecret  = "app-secret-7f3e1c9a"
	feishuVerifyTok  = "verify-token-2b8d6e4f"
	feishuEncryptKey = "encrypt-key-9a1c5e7b"
)

// TestBot_ServesFeishuEvents runs `hermes bot` with platform "feishu"
// against Feishu's stand-in: the URL verification, a message in and one
// answer out, a resent event ignored, a forged one refused before anything
// runs, an expired token refreshed, and the session commands in either
// language.
func TestBot_ServesFeishuEvents(t *testing.T) {
	model := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		// The task is the last line of the last message ("Task:\nsay hello").
		last := req.Messages[len(req.Messages)-1].Content
		return llmtest.Step{Content: "answer to: " + last[strings.LastIndexByte(last, '\n')+1:]}
	})
	api := feishutest.NewServer(t, feishuAppID, feishuAppSecret, 0)
	home := t.TempDir()
	cfg := fmt.Sprintf(`[model]
base_url = %q
model = "test-model"
api_key_env = "BOT_TEST_MODEL_KEY"

[bot]
platform = "feishu"
app_id = %q
app_secret_env = "BOT_TEST_FEISHU_SECRET"
verification_token = %q
encrypt_key_env = "BOT_TEST_FEISHU_KEY"
api_base = %q
`, model.URL, feishuAppID, feishuVerifyTok, api.URL)
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut := &botOutput{ready: make(chan string, 1)}, &botOutput{}
	vars := map[string]string{"BOT_TEST_MODEL_KEY": "sk-bot-cli-test", "BOT_TEST_FEISHU_SECRET": feishuAppSecret,
		"BOT_TEST_FEISHU_KEY": feishuEncryptKey, "HERMES_LANG": "en"}
	env := &cli.Env{Stdout: out, Stderr: errOut, Getenv: func(k string) string { return vars[k] }}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	code := make(chan int, 1)
	go func() { code <- cli.Main(ctx, env, []string{"bot", "--home", home, "--listen", "127.0.0.1:0"}) }()
	var url string
	select {
	case url = <-out.ready:
	case c := <-code:
		t.Fatalf("hermes bot exited with %d before listening:\n%s", c, errOut)
	}
	events := feishutest.NewEvents(url, feishuVerifyTok, feishuEncryptKey)
	wait, stop := context.WithTimeout(ctx, 20*time.Second)
	defer stop()
	replies := func(n int) []feishutest.Reply {
		t.Helper()
		if err := api.WaitFor(wait, func(r []feishutest.Reply) bool { return len(r) >= n }); err != nil {
			t.Fatalf("%v; replies so far %+v:\n%s", err, api.Replies(), errOut)
		}
		return api.Replies()
	}
	send := func(ev feishutest.Text, want int) {
		t.Helper()
		if status, err := events.Send(ev); err != nil || status != want {
			t.Fatalf("event %s: %d %v, want %d:\n%s", ev.EventID, status, err, want, errOut)
		}
	}

	status, body, err := events.VerifyURL("challenge-6d1f")
	var echo struct{ Challenge string }
	if err != nil || status != http.StatusOK || json.Unmarshal(body, &echo) != nil || echo.Challenge != "challenge-6d1f" {
		t.Fatalf("URL verification: %d %s %v", status, body, err)
	}

	hello := feishutest.Text{EventID: "ev-1", MessageID: "om_1", OpenID: "ou_zhang", ChatID: "oc_p2p", Text: "say hello"}
	send(hello, http.StatusOK)
	if got := replies(1); got[0].To != "om_1" || got[0].MsgType != "text" || got[0].Text() != "answer to: say hello" {
		t.Fatalf("the answer went as %+v", got[0])
	}

	// Feishu resends an event it thinks was lost: same event_id, another
	// request. A forged event (a bad signature) is refused before it is read.
	send(hello, http.StatusOK)
	forged, err := events.Request(events.JSON(feishutest.Text{EventID: "ev-2", MessageID: "om_2", OpenID: "ou_zhang", ChatID: "oc_p2p", Text: "forged task"}), time.Now(), feishutest.Nonce())
	if err != nil {
		t.Fatal(err)
	}
	forged.Header.Set(feishu.HeaderSignature, strings.Repeat("0", 64))
	if status, _, err := events.Do(forged); err != nil || (status != http.StatusForbidden && status != http.StatusUnauthorized) {
		t.Fatalf("a forged event answered %d %v", status, err)
	}

	// The token expires at Feishu before its time here: the reply fetches
	// another and goes out.
	api.ExpireTokens()
	send(feishutest.Text{EventID: "ev-3", MessageID: "om_3", OpenID: "ou_li", ChatID: "oc_team", ChatType: "group",
		Text: "@_user_1 count to three", Mentions: []string{"@_user_1"}}, http.StatusOK)
	got := replies(2)
	if got[1].To != "om_3" || got[1].Text() != "answer to: count to three" {
		t.Fatalf("the group's answer went as %+v", got[1])
	}
	// The session commands live in bot and work unchanged here.
	send(feishutest.Text{EventID: "ev-4", MessageID: "om_4", OpenID: "ou_zhang", ChatID: "oc_p2p", Text: "/新会话"}, http.StatusOK)
	send(feishutest.Text{EventID: "ev-5", MessageID: "om_5", OpenID: "ou_zhang", ChatID: "oc_p2p", Text: "/pin"}, http.StatusOK)
	send(feishutest.Text{EventID: "ev-6", MessageID: "om_6", OpenID: "ou_zhang", ChatID: "oc_p2p", Text: "/stop"}, http.StatusOK)
	got = replies(5)
	want := map[string]string{"om_4": "已开始新的对话", "om_5": "Nothing is running", "om_6": "Nothing is running"}
	for _, r := range got[2:] {
		if w, ok := want[r.To]; !ok || !strings.Contains(r.Text(), w) {
			t.Errorf("reply to %s: %q, want it to say %q", r.To, r.Text(), w)
		}
	}
	// The resent event ran nothing: had it run, its answer (or the /新会话
	// that stopped it) would be among the replies to the same session.
	// The forged one never reached the model.
	if len(got) != 5 {
		t.Fatalf("%d replies: %+v", len(got), got)
	}
	for _, req := range model.Requests() {
		for _, m := range req.Messages {
			if strings.Contains(m.Content, "forged task") {
				t.Fatalf("the forged task reached the model: %+v", req.Messages)
			}
		}
	}
	if st := api.Stats(); st.Tokens != 2 {
		t.Fatalf("tokens fetched: %+v, want the start's and the refresh", st)
	}
	cancel()
	if c := <-code; c != cli.ExitOK {
		t.Fatalf("exit code %d after cancel:\n%s", c, errOut)
	}
	for _, secret := range []string{feishuAppSecret, feishuVerifyTok, feishuEncryptKey, "t-feishutest-1"} {
		if strings.Contains(out.String()+errOut.String(), secret) {
			t.Fatalf("hermes bot printed a secret:\n%s\n%s", out, errOut)
		}
	}
}

// A Feishu app without an Encrypt Key sends events unsigned: hermes bot
// warns of it as it starts, and an event created a year ago, though it
// carries the right token, is refused and runs nothing, while one sent now
// is answered.
func TestBot_PlainFeishuRefusesStaleEvents(t *testing.T) {
	model := llmtest.NewFuncServer(t, func(llmtest.Request) llmtest.Step { return llmtest.Step{Content: "fresh answer"} })
	api := feishutest.NewServer(t, feishuAppID, feishuAppSecret, 0)
	home := t.TempDir()
	cfg := fmt.Sprintf(`[model]
base_url = %q
model = "test-model"
api_key_env = "BOT_TEST_MODEL_KEY"

[bot]
platform = "feishu"
app_id = %q
app_secret_env = "BOT_TEST_FEISHU_SECRET"
verification_token = %q
api_base = %q
`, model.URL, feishuAppID, feishuVerifyTok, api.URL)
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut := &botOutput{ready: make(chan string, 1)}, &botOutput{}
	vars := map[string]string{"BOT_TEST_MODEL_KEY": "sk-bot-cli-test", "BOT_TEST_FEISHU_SECRET": feishuAppSecret, "HERMES_LANG": "en"}
	env := &cli.Env{Stdout: out, Stderr: errOut, Getenv: func(k string) string { return vars[k] }}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	code := make(chan int, 1)
	go func() { code <- cli.Main(ctx, env, []string{"bot", "--home", home, "--listen", "127.0.0.1:0"}) }()
	var url string
	select {
	case url = <-out.ready:
	case c := <-code:
		t.Fatalf("hermes bot exited with %d before listening:\n%s", c, errOut)
	}
	if !strings.Contains(errOut.String(), "anyone who learns the verification token") || !strings.Contains(errOut.String(), "encrypt_key") {
		t.Errorf("hermes bot started without warning that events come unsigned:\n%s", errOut)
	}

	events := feishutest.NewEvents(url, feishuVerifyTok, "")
	events.Now = func() time.Time { return time.Now().AddDate(-1, 0, 0) }
	if status, err := events.Send(feishutest.Text{EventID: "ev-old", MessageID: "om_old", OpenID: "ou_zhang", ChatID: "oc_p2p", Text: "a year-old task"}); err != nil || status != http.StatusForbidden {
		t.Fatalf("a year-old event answered %d %v, want 403:\n%s", status, err, errOut)
	}
	events.Now = nil
	if status, err := events.Send(feishutest.Text{EventID: "ev-now", MessageID: "om_now", OpenID: "ou_zhang", ChatID: "oc_p2p", Text: "a task now"}); err != nil || status != http.StatusOK {
		t.Fatalf("an event sent now answered %d %v:\n%s", status, err, errOut)
	}
	wait, stop := context.WithTimeout(ctx, 20*time.Second)
	defer stop()
	if err := api.WaitFor(wait, func(r []feishutest.Reply) bool { return len(r) >= 1 }); err != nil {
		t.Fatalf("%v:\n%s", err, errOut)
	}
	if got := api.Replies(); len(got) != 1 || got[0].To != "om_now" {
		t.Fatalf("replies %+v, want one, to the event sent now", got)
	}
	for _, req := range model.Requests() {
		for _, m := range req.Messages {
			if strings.Contains(m.Content, "a year-old task") {
				t.Fatalf("the year-old task reached the model: %+v", req.Messages)
			}
		}
	}
	cancel()
	if c := <-code; c != cli.ExitOK {
		t.Fatalf("exit code %d after cancel:\n%s", c, errOut)
	}
}
