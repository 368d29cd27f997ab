package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hermes/backend/callback"
	"hermes/backend/chat"
	"hermes/backend/chatapi"
	"hermes/backend/cli"
	"hermes/backend/cluster"
	"hermes/backend/cluster/clustertest"
	"hermes/backend/config"
	"hermes/backend/llm/llmtest"
)

// relay is a chat platform as a package of its own would hold it, whole:
// its keys of [bot] and their documentation, what it needs to start, its
// adapter, and its API client's token shared through the cluster. Nothing
// else in Hermes names it; the one line below that registers it is the
// line backend/platforms holds for each platform (docs/development.md,
// Adding a chat platform).
func init() { chat.Register(relay) }

var relay = chat.Platform{
	Config: config.BotPlatform{
		Name:  "relay",
		About: config.Doc{EN: "a relay of the tests", ZH: "测试用的中继"},
		Keys:  relayKeys{},
		Docs: map[string]config.Doc{
			"relay_token":     {EN: "The token every relayed message carries.", ZH: "每条中继消息都带有的令牌。"},
			"relay_token_env": {EN: "The environment variable that holds relay_token.", ZH: "保存 relay_token 的环境变量名。"},
			"relay_app":       {EN: "The relay's app, whose access token the replicas share.", ZH: "中继的应用，各副本共享其访问令牌。"},
		},
		Ready: func(b config.Bot) []error {
			return []error{b.Missing("relay_token", config.BotKeys[relayKeys](b).RelayToken)}
		},
	},
	New: newRelay,
}

// relayKeys are the relay's own keys of [bot].
type relayKeys struct {
	RelayToken    string `toml:"relay_token"`
	RelayTokenEnv string `toml:"relay_token_env"`
	RelayApp      string `toml:"relay_app"`
}

// relayed gets the final replies of every relay adapter.
var relayed = make(chan relayReply, 16)

type relayReply struct{ User, Text, Token string }

type relayAdapter struct {
	env   chat.Env
	keys  relayKeys
	token chatapi.SharedToken // nil for a bot that is one process
}

func newRelay(env chat.Env) (chat.Adapter, error) {
	a := &relayAdapter{env: env, keys: config.BotKeys[relayKeys](env.Config)}
	if env.Shared != nil {
		a.token = env.Shared.Token("relay/" + a.keys.RelayApp)
	}
	return a, nil
}

// ServeHTTP takes a message posted as JSON with the relay's token.
func (a *relayAdapter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("X-Relay-Token") != a.keys.RelayToken {
		a.env.Inbox.Refuse(w, r, callback.ErrSignature)
		return
	}
	body, err := callback.ReadBody(w, r, a.env.BodyLimit())
	var m chat.Message
	if err == nil && json.Unmarshal(body, &m) != nil {
		err = callback.ErrMalformed
	}
	if err == nil {
		err = a.env.Inbox.Deliver(m, a.ReplierTo(m.User, ""))
	}
	if err != nil {
		a.env.Inbox.Refuse(w, r, err)
		return
	}
	w.WriteHeader(http.StatusAccepted)
}

// ReplierTo replies to user from any replica.
func (a *relayAdapter) ReplierTo(user, _ string) chat.Replier { return relayReplier{a, user} }

type relayReplier struct {
	a    *relayAdapter
	user string
}

// Reply sends the final reply with the app's access token, fetched once
// for the replicas.
func (r relayReplier) Reply(ctx context.Context, text string, final bool) error {
	if !final {
		return nil
	}
	tok := ""
	if r.a.token != nil {
		var err error
		tok, _, err = r.a.token.Token(ctx, func(context.Context) (string, time.Time, error) {
			return "relay-access-" + r.a.keys.RelayApp, time.Now().Add(time.Hour), nil
		})
		if err != nil {
			return err
		}
	}
	relayed <- relayReply{r.user, text, tok}
	return nil
}

// TestBot_PlatformIsItsPackageAndOneLine: the relay, registered with one
// line, gets its keys of [bot] documented by `hermes config init`, read and
// checked by `hermes config check` with the others, its callback served by
// `hermes bot` as a replica of a cluster, and its access token shared
// through the cluster.
func TestBot_PlatformIsItsPackageAndOneLine(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	vars := map[string]string{"BOT_TEST_MODEL_KEY": "sk-bot-cli-test", "RELAY_TOKEN": "relay-secret-5c1d", "HERMES_LANG": "en"}
	run := func(args ...string) (int, string, string) {
		out, errOut := &botOutput{}, &botOutput{}
		code := cli.Main(ctx, &cli.Env{Stdout: out, Stderr: errOut, Getenv: func(k string) string { return vars[k] }}, args)
		return code, out.String(), errOut.String()
	}

	home := t.TempDir()
	if code, _, errOut := run("config", "init", "--home", home, "--lang", "en"); code != cli.ExitOK {
		t.Fatalf("config init: %d %s", code, errOut)
	}
	written, err := os.ReadFile(filepath.Join(home, "hermes.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(written), "# The token every relayed message carries.\n# relay_token = \"\"\n") ||
		!strings.Contains(string(written), `"relay" (a relay of the tests)`) {
		t.Fatalf("config init does not document the relay in [bot]:\n%s", written)
	}

	model := llmtest.NewFuncServer(t, func(llmtest.Request) llmtest.Step { return llmtest.Step{Content: "hello from the relay"} })
	nats := clustertest.Start(t)
	write := func(keys string) {
		t.Helper()
		cfg := fmt.Sprintf("[model]\nbase_url = %q\nmodel = \"test-model\"\napi_key_env = \"BOT_TEST_MODEL_KEY\"\n\n"+
			"[bot]\nplatform = \"relay\"\n%s\n[cluster]\nnats_url = %q\n", model.URL, keys, nats.URL)
		if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte(cfg), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("relay_tokn_env = \"RELAY_TOKEN\"\n")
	if code, _, errOut := run("config", "check", "--home", home); code != cli.ExitFailed || !strings.Contains(errOut, "relay_token_env") {
		t.Fatalf("config check of a misspelt key: %d %q; want it named with relay_token_env", code, errOut)
	}
	write("relay_token_env = \"RELAY_TOKEN\"\nrelay_app = \"relay-app-1\"\n")
	if code, _, errOut := run("config", "check", "--home", home); code != cli.ExitOK {
		t.Fatalf("config check: %d %s", code, errOut)
	}

	out, errOut := &botOutput{ready: make(chan string, 1)}, &botOutput{}
	code := make(chan int, 1)
	go func() {
		env := &cli.Env{Stdout: out, Stderr: errOut, Getenv: func(k string) string { return vars[k] }}
		code <- cli.Main(ctx, env, []string{"bot", "--home", home, "--listen", "127.0.0.1:0"})
	}()
	var url string
	select {
	case url = <-out.ready:
	case c := <-code:
		t.Fatalf("hermes bot exited with %d before listening:\n%s", c, errOut)
	}
	post := func(token string) int {
		t.Helper()
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader([]byte(`{"ID":"m1","User":"ann","Text":"say hello"}`)))
		req.Header.Set("X-Relay-Token", token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if status := post("not-the-token"); status != http.StatusForbidden {
		t.Fatalf("a message without the relay's token: %d, want 403", status)
	}
	if status := post(vars["RELAY_TOKEN"]); status != http.StatusAccepted {
		t.Fatalf("a message: %d, want 202", status)
	}
	select {
	case r := <-relayed:
		if r.User != "ann" || r.Text != "hello from the relay" || r.Token != "relay-access-relay-app-1" {
			t.Fatalf("relayed %+v", r)
		}
	case c := <-code:
		t.Fatalf("hermes bot exited with %d:\n%s", c, errOut)
	case <-time.After(20 * time.Second):
		t.Fatalf("no reply relayed:\n%s", errOut)
	}
	// The token the bot fetched is the cluster's: another of its clients
	// reads it without fetching one.
	cl, err := cluster.Open(ctx, cluster.Options{Config: config.Cluster{NATSURL: nats.URL}})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	tok, _, err := cl.Platform().Token("relay/relay-app-1").Token(ctx, func(context.Context) (string, time.Time, error) {
		return "", time.Time{}, errors.New("fetched again")
	})
	if err != nil || tok != "relay-access-relay-app-1" {
		t.Fatalf("the cluster's token of the relay: %q, %v", tok, err)
	}
	cancel()
	if c := <-code; c != cli.ExitOK {
		t.Fatalf("exit code %d after cancel:\n%s", c, errOut)
	}
}
