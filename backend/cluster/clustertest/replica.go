package clustertest

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"hermes/backend/agent"
	"hermes/backend/bot"
	"hermes/backend/cluster"
	"hermes/backend/config"
	"hermes/backend/event"
	"hermes/backend/llm"
	_ "hermes/backend/platforms" // the platforms hermes bot serves
	"hermes/backend/runlog"
	"hermes/backend/runner"
	"hermes/backend/store"
	"hermes/backend/toolbox"
	"hermes/backend/wecom"
	"hermes/backend/wecom/wecomtest"
)

// The WeCom application the replicas serve, and the model's key; none of
// them may reach a replica's log.
const (
	CorpID   = "ww0123456789abcdef"
	Secret   = "corp-secret-5f1e9d2c7b3a"
	Token    = "callback-token-8c2d4e6f"
	AESKey   = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG"
	ModelKey = "sk-test-cluster-4e2a9c1f7d3b"
	AgentID  = 1000002
)

// BotConfig is the [bot] section of a WeCom application served by srv.
func BotConfig(srv *wecomtest.Server) config.Bot {
	return config.WithBotKeys(config.Bot{
		Platform: config.BotWeCom, WebhookSecret: Token, APIBase: srv.URL, RateLimit: 400,
	}, wecom.Keys{EncodingAESKey: AESKey, CorpID: CorpID, Secret: Secret, AgentID: AgentID, UserRateLimit: 1000})
}

// Replica is one `hermes bot` replica in the test process: its own home
// (hermes.db, runs), its own connection to the NATS server, and its
// callback server on loopback.
type Replica struct {
	Name    string
	Bot     *bot.Bot
	Cluster *cluster.Cluster
	Tasks   *cluster.Tasks
	Runs    *runner.Manager // the runs in the replica's home
	URL     string          // the callback's
	CB      *wecomtest.Callbacks

	tb     testing.TB
	store  *store.Store
	srv    *httptest.Server
	logs   *syncBuffer
	closed sync.Once
}

// ReplicaOptions configure a replica.
type ReplicaOptions struct {
	Name    string
	NATSURL string
	Model   string // the scripted model's URL
	Bot     config.Bot
	AckWait time.Duration
	Memory  agent.MemoryUse // what the runs do with long-term memory
}

// StartReplica starts a replica; it is shut down when the test ends.
func StartReplica(tb testing.TB, o ReplicaOptions) *Replica {
	tb.Helper()
	home := tb.TempDir()
	st, err := store.Open(filepath.Join(home, "hermes.db"))
	if err != nil {
		tb.Fatal(err)
	}
	cl, err := cluster.Open(context.Background(), cluster.Options{
		Config: config.Cluster{NATSURL: o.NATSURL}, Name: o.Name, AckWait: o.AckWait,
	})
	if err != nil {
		_ = st.Close()
		tb.Fatal(err)
	}
	reg := toolbox.NewRegistry()
	for _, tool := range toolbox.FileTools(nil) {
		if err := reg.Register(tool); err != nil {
			tb.Fatal(err)
		}
	}
	client := llm.New(llm.Config{BaseURL: o.Model, APIKey: ModelKey, Model: "test-model", Stream: true,
		Backoff: func(int) time.Duration { return 0 }})
	setup := agent.Setup{
		Home: home, Redactor: runlog.NewRedactor(ModelKey, Secret, Token, AESKey),
		Model: client, ModelName: "test-model", BaseURL: o.Model, Tools: reg, Memory: o.Memory,
	}
	r := &Replica{Name: o.Name, Cluster: cl, Tasks: cl.Tasks(), tb: tb, store: st, logs: &syncBuffer{}}
	runs := runner.New(runner.Options{Home: home, Store: st, Bus: event.NewBus()})
	r.Runs = runs
	r.Bot, err = bot.New(bot.Options{
		Setup: setup, Runs: runs, Store: st, Config: o.Bot,
		APIBackoff: func(int) time.Duration { return 0 },
		Log:        slog.New(slog.NewTextHandler(r.logs, nil)),
		Shared:     bot.SharedBy(cl),
	})
	if err != nil {
		cl.Close()
		_ = st.Close()
		tb.Fatal(err)
	}
	r.srv = httptest.NewServer(r.Bot.Handler())
	r.URL = r.srv.URL + o.Bot.CallbackPath()
	if r.CB, err = wecomtest.NewCallbacks(r.URL, Token, AESKey, CorpID); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(r.Close)
	return r
}

// Die cuts the replica off from NATS without a word: the tasks it holds go
// to another replica once their ack wait is over, and its answers to them
// do not go out.
func (r *Replica) Die() { r.Cluster.Close() }

// Close shuts the replica down as `hermes bot` does, and fails the test if
// a secret reached its log.
func (r *Replica) Close() {
	r.closed.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		if err := r.Bot.Shutdown(ctx); err != nil {
			r.tb.Errorf("%s: shutdown: %v", r.Name, err)
		}
		r.srv.Close()
		r.Cluster.Close()
		_ = r.store.Close()
		logs := r.logs.String()
		for _, s := range []string{ModelKey, Secret, Token, AESKey, "wecomtest-token-"} {
			if strings.Contains(logs, s) {
				r.tb.Errorf("%s's log holds a secret (%.6s…)", r.Name, s)
			}
		}
	})
}

// Logs is what the replica logged.
func (r *Replica) Logs() string { return r.logs.String() }

type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
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
