package bot_test

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"hermes/backend/agent"
	"hermes/backend/bot"
	"hermes/backend/cluster"
	"hermes/backend/cluster/clustertest"
	"hermes/backend/config"
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runlog"
	"hermes/backend/runner"
	"hermes/backend/store"
	"hermes/backend/toolbox"
	"hermes/backend/wecom/wecomtest"
)

// heard is a log handler that also tells on a channel of each record
// whose message holds what it listens for.
type heard struct {
	slog.Handler
	listen string
	told   chan string
}

func (h heard) Handle(ctx context.Context, r slog.Record) error {
	if strings.Contains(r.Message, h.listen) {
		select {
		case h.told <- r.Message:
		default:
		}
	}
	return h.Handler.Handle(ctx, r)
}

// TestReplica_CopyFailureDoesNotStopTheRun: the cluster's store of run
// copies is gone, so JetStream refuses every copy; a replica's task of
// three steps runs on and is answered once, and the refusal is logged
// once, without a secret.
func TestReplica_CopyFailureDoesNotStopTheRun(t *testing.T) {
	srv := clustertest.Start(t)
	wecom := wecomtest.NewServer(t, testCorpID, testSecret, 0)
	release := make(chan struct{})
	var asked atomic.Int32
	model := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		switch asked.Add(1) {
		case 1:
			return llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "c1", Name: "list_files", Arguments: `{"path":"."}`}}}
		case 2:
			return llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "c2", Name: "list_files", Arguments: `{"path":"./"}`}}}
		}
		// Held until a copy has been refused: the steps before are
		// checkpointed, and the run is still going.
		return llmtest.Step{Content: wecomtest.Answer(req), Wait: release}
	})
	cfg := botConfig(wecom)
	cl, err := cluster.Open(t.Context(), cluster.Options{Config: config.Cluster{NATSURL: srv.URL}, Name: "replica-0"})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	nc, err := nats.Connect(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	if err := js.DeleteObjectStore(t.Context(), "hermes_bot_runs"); err != nil {
		t.Fatal(err)
	}

	home := t.TempDir()
	st, err := store.Open(filepath.Join(home, "hermes.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	reg := toolbox.NewRegistry()
	for _, tool := range toolbox.FileTools(nil) {
		if err := reg.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
	logs := &syncBuffer{}
	refused := make(chan string, 1)
	b, err := bot.New(bot.Options{
		Setup: agent.Setup{
			Home: home, Redactor: runlog.NewRedactor(testKey, testSecret, testToken, testAESKey), Tools: reg,
			Model:     llm.New(llm.Config{BaseURL: model.URL, APIKey: testKey, Model: "test-model", Stream: true, Backoff: noBackoff}),
			ModelName: "test-model", BaseURL: model.URL,
		},
		Runs:  runner.New(runner.Options{Home: home, Store: st, Bus: event.NewBus()}),
		Store: st, Config: cfg, APIBackoff: noBackoff,
		Log:    slog.New(heard{Handler: slog.NewTextHandler(logs, nil), listen: "not copied", told: refused}),
		Shared: bot.SharedBy(cl),
	})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(b.Handler())
	defer hs.Close()
	cb, err := wecomtest.NewCallbacks(hs.URL+cfg.CallbackPath(), testToken, testAESKey, testCorpID)
	if err != nil {
		t.Fatal(err)
	}
	if status, _, err := cb.Text("erin", "msg-5", "u4-m0 please"); err != nil || status != 200 {
		t.Fatalf("status %d, %v", status, err)
	}
	<-refused
	close(release)
	waitMessage(t, wecom, "erin", "done:")
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	if err := b.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if got := wecom.Messages("erin"); len(got) != 1 || got[0] != "done: u4-m0" {
		t.Fatalf("erin was sent %q, want one answer", got)
	}
	if n := asked.Load(); n != 3 {
		t.Errorf("the model was asked %d times, want 3", n)
	}
	if n := strings.Count(logs.String(), "not copied to the cluster"); n != 1 {
		t.Errorf("the refused copies were logged %d times, want once:\n%s", n, logs.String())
	}
	for _, s := range secrets {
		if strings.Contains(logs.String(), s) {
			t.Errorf("the log holds a secret (%.6s…)", s)
		}
	}
}
