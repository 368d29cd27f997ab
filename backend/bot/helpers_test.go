package bot_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"hermes/backend/agent"
	"hermes/backend/bot"
	"hermes/backend/config"
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	_ "hermes/backend/platforms" // the platforms hermes bot serves
	"hermes/backend/runlog"
	"hermes/backend/runner"
	"hermes/backend/store"
	"hermes/backend/toolbox"
	"hermes/backend/webhook"
	"hermes/backend/wecom"
	"hermes/backend/wecom/wecomtest"
)

// testKey is the model's API key.
const testKey = "sk-test-bot-4e2a9c1f7d3b"

const (
	testCorpID = "ww0123456789abcdef"
	// testSecret and testToken stand for the corp secret and the callback
	// token; no log line, reply or error may hold them.
	testSecret = "corp-secret-5f1e9d2c7b3a"
	testToken  = "callback-token-8c2d4e6f"
	testAESKey = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG"
)

func noBackoff(int) time.Duration { return 0 }

// secrets are what no log line, reply or error may hold.
var secrets = []string{testKey, testSecret, testToken, testAESKey, "wecomtest-token-"}

// harness is one bot process: its home, store, model, the WeCom it talks
// to, and its callback server.
type harness struct {
	t     *testing.T
	home  string
	store *store.Store
	bus   *event.Bus
	runs  *runner.Manager
	bot   *bot.Bot
	srv   *httptest.Server
	cb    *wecomtest.Callbacks
	logs  *syncBuffer
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// botConfig is a WeCom application's [bot] section for the fake WeCom.
func botConfig(srv *wecomtest.Server) config.Bot {
	return config.WithBotKeys(config.Bot{
		Platform: config.BotWeCom, WebhookSecret: testToken, APIBase: srv.URL, RateLimit: 200,
	}, wecom.Keys{EncodingAESKey: testAESKey, CorpID: testCorpID, Secret: testSecret, AgentID: 1000002, UserRateLimit: 1000})
}

// newHarness starts a bot on home (a new one when "") against model, with
// cfg as its [bot] section; each of with changes the runs' setup.
func newHarness(t *testing.T, home string, model *llmtest.Server, cfg config.Bot, with ...func(*agent.Setup)) *harness {
	t.Helper()
	if home == "" {
		home = t.TempDir()
	}
	store, err := store.Open(filepath.Join(home, "hermes.db"))
	if err != nil {
		t.Fatal(err)
	}
	reg := toolbox.NewRegistry()
	for _, tool := range toolbox.FileTools(nil) {
		if err := reg.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
	client := llm.New(llm.Config{BaseURL: model.URL, APIKey: testKey, Model: "test-model", Stream: true, Backoff: noBackoff})
	h := &harness{t: t, home: home, store: store, bus: event.NewBus(), logs: &syncBuffer{}}
	setup := agent.Setup{
		Home: home, Redactor: runlog.NewRedactor(testKey, testSecret, testToken, testAESKey),
		Model: client, ModelName: "test-model", BaseURL: model.URL, Tools: reg,
	}
	for _, f := range with {
		f(&setup)
	}
	h.runs = runner.New(runner.Options{Home: home, Store: store, Bus: h.bus})
	h.bot, err = bot.New(bot.Options{
		Setup: setup, Runs: h.runs,
		Store: store, Config: cfg, APIBackoff: noBackoff,
		Log: slog.New(slog.NewTextHandler(h.logs, nil)),
	})
	if err != nil {
		store.Close()
		t.Fatal(err)
	}
	h.srv = httptest.NewServer(h.bot.Handler())
	h.cb, err = wecomtest.NewCallbacks(h.srv.URL+cfg.CallbackPath(), testToken, testAESKey, testCorpID)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.close)
	return h
}

// close shuts the bot down as `hermes bot` does, then checks that no
// secret reached its log.
func (h *harness) close() {
	if h.store == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := h.bot.Shutdown(ctx); err != nil {
		h.t.Errorf("shutdown: %v", err)
	}
	h.srv.Close()
	h.store.Close()
	h.store = nil
	logs := h.logs.String()
	for _, s := range secrets {
		if strings.Contains(logs, s) {
			h.t.Errorf("the bot's log holds a secret (%.6s…):\n%s", s, logs)
		}
	}
}

// send posts a text callback and fails the test unless it is accepted.
func (h *harness) send(from, msgID, text string) {
	h.t.Helper()
	status, _, err := h.cb.Text(from, msgID, text)
	if err != nil || status != 200 {
		h.t.Fatalf("callback %q: status %d, %v", text, status, err)
	}
}

// waitMessage waits until user has been sent a message containing want,
// and returns every message sent to user so far.
func waitMessage(t *testing.T, wecom *wecomtest.Server, user, want string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	err := wecom.WaitFor(ctx, func(m map[string][]string) bool {
		for _, text := range m[user] {
			if strings.Contains(text, want) {
				return true
			}
		}
		return false
	})
	if err != nil {
		t.Fatalf("%v; %s got %q, none with %q", err, user, wecom.Messages(user), want)
	}
	return wecom.Messages(user)
}

var (
	taskRe   = regexp.MustCompile(`(?s)^Task:\n(.*?)(\n\nStanding instructions:|$)`)
	injectRe = regexp.MustCompile(`(?s)^Instruction from the user, added while you were working:\n(.*)$`)
)

// taskOf is the task of a request, read from its anchor.
func taskOf(req llmtest.Request) string {
	for _, m := range req.Messages {
		if m.Role == llm.RoleUser {
			if g := taskRe.FindStringSubmatch(m.Content); g != nil {
				return g[1]
			}
		}
	}
	return ""
}

// injectedOf are the instructions injected into a request's conversation.
func injectedOf(req llmtest.Request) []string {
	var out []string
	for _, m := range req.Messages {
		if g := injectRe.FindStringSubmatch(m.Content); m.Role == llm.RoleUser && g != nil {
			out = append(out, g[1])
		}
	}
	return out
}

// echoModel answers every task at once with "answer to: TASK".
func echoModel(t *testing.T) *llmtest.Server {
	return llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		return llmtest.Step{Content: "answer to: " + taskOf(req)}
	})
}

// bridge is the other end of the generic webhook: it takes the bot's
// replies at reply_url, checks their signature, and keeps them by user.
type bridge struct {
	t   *testing.T
	URL string

	mu      sync.Mutex
	replies map[string][]string
	changed chan struct{} // closed and replaced on each reply
}

func newBridge(t *testing.T) *bridge {
	br := &bridge{t: t, replies: map[string][]string{}, changed: make(chan struct{})}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var rep webhook.Reply
		if err := json.Unmarshal(body, &rep); err != nil ||
			webhook.Sign(testToken, r.Header.Get(webhook.HeaderTimestamp), r.Header.Get(webhook.HeaderNonce), body) != r.Header.Get(webhook.HeaderSignature) {
			t.Errorf("bridge: a reply that is not signed JSON: %s", body)
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		br.mu.Lock()
		br.replies[rep.User] = append(br.replies[rep.User], rep.Text)
		close(br.changed)
		br.changed = make(chan struct{})
		br.mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	br.URL = srv.URL
	return br
}

// webhookConfig is a generic webhook's [bot] section replying to br.
func webhookConfig(br *bridge) config.Bot {
	return config.WithBotKeys(config.Bot{Platform: webhook.Name, WebhookSecret: testToken}, webhook.Keys{ReplyURL: br.URL})
}

// wait waits until user has been sent a reply containing want, and returns
// every reply sent to user so far.
func (br *bridge) wait(user, want string) []string {
	br.t.Helper()
	ctx, cancel := context.WithTimeout(br.t.Context(), 20*time.Second)
	defer cancel()
	for {
		br.mu.Lock()
		got := slices.Clone(br.replies[user])
		changed := br.changed
		br.mu.Unlock()
		if slices.ContainsFunc(got, func(s string) bool { return strings.Contains(s, want) }) {
			return got
		}
		select {
		case <-changed:
		case <-ctx.Done():
			br.t.Fatalf("%.40s… got %q, none with %q", user, got, want)
		}
	}
}

// post sends a signed message to the bot's generic webhook and fails the
// test unless it is accepted.
func (h *harness) post(user, msgID, text string) {
	h.t.Helper()
	body, _ := json.Marshal(webhook.Message{MessageID: msgID, User: user, Text: text})
	ts, nonce := strconv.FormatInt(time.Now().Unix(), 10), wecomtest.Nonce()
	req, _ := http.NewRequest(http.MethodPost, h.srv.URL+"/callback", bytes.NewReader(body))
	req.Header.Set(webhook.HeaderTimestamp, ts)
	req.Header.Set(webhook.HeaderNonce, nonce)
	req.Header.Set(webhook.HeaderSignature, webhook.Sign(testToken, ts, nonce, body))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		h.t.Fatalf("webhook message %q: status %d", text, resp.StatusCode)
	}
}
