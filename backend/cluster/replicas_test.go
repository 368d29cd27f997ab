package cluster_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"hermes/backend/agent"
	"hermes/backend/bot"
	"hermes/backend/chat"
	"hermes/backend/cluster"
	"hermes/backend/cluster/clustertest"
	"hermes/backend/config"
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runner"
	"hermes/backend/store"
	"hermes/backend/toolbox"
	"hermes/backend/wecom"
	"hermes/backend/wecom/wecomtest"
)

// startReplicas starts n bot replicas on one NATS server, each with its own
// home, against one WeCom stand-in; model answers their runs.
func startReplicas(t *testing.T, n int, wecom *wecomtest.Server, limit int, model *llmtest.Server, ackWait time.Duration) (string, []*clustertest.Replica) {
	srv := clustertest.Start(t)
	rs := make([]*clustertest.Replica, n)
	cfg := clustertest.BotConfig(wecom)
	if limit > 0 {
		// WeCom's limit is the company's: each replica keeps to its share.
		cfg.RateLimit = limit * 9 / 10 / n
	}
	for i := range rs {
		rs[i] = clustertest.StartReplica(t, clustertest.ReplicaOptions{
			Name: fmt.Sprintf("replica-%d", i), NATSURL: srv.URL, Model: model.URL,
			Bot: cfg, AckWait: ackWait,
		})
	}
	return srv.URL, rs
}

// answers are the messages to user that carry an answer of the model.
func answers(wecom *wecomtest.Server, user string) []string { return done(wecom.Messages(user)) }

func done(msgs []string) []string {
	var out []string
	for _, m := range msgs {
		if strings.HasPrefix(m, "done:") {
			out = append(out, m)
		}
	}
	return out
}

func waitAnswer(t *testing.T, wecom *wecomtest.Server, user string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	if err := wecom.WaitFor(ctx, func(m map[string][]string) bool { return len(done(m[user])) > 0 }); err != nil {
		t.Fatal(err)
	}
}

// TestReplicas_SameCallbackToEveryReplicaRunsOnce: WeCom delivers one
// message to each of three replicas (a resend lands on another); it is run
// once and answered once.
func TestReplicas_SameCallbackToEveryReplicaRunsOnce(t *testing.T) {
	wecom := wecomtest.NewServer(t, clustertest.CorpID, clustertest.Secret, 0)
	var runs atomic.Int32
	model := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		runs.Add(1)
		return llmtest.Step{Content: wecomtest.Answer(req)}
	})
	_, rs := startReplicas(t, 3, wecom, 0, model, 0)
	for _, r := range rs {
		status, _, err := r.CB.Text("alice", "msg-1", "u0-m0 please")
		if err != nil || status != 200 {
			t.Fatalf("%s: status %d, %v", r.Name, status, err)
		}
	}
	waitAnswer(t, wecom, "alice")
	for _, r := range rs {
		r.Close() // every reply still queued goes out, or none would
	}
	if got := answers(wecom, "alice"); len(got) != 1 || got[0] != "done: u0-m0" {
		t.Fatalf("alice was sent %q, want one answer", wecom.Messages("alice"))
	}
	if n := runs.Load(); n != 1 {
		t.Fatalf("the model was asked %d times, want once", n)
	}
	if st := wecom.Stats(); st.GetToken != 1 {
		t.Fatalf("%d access tokens fetched by three replicas, want 1", st.GetToken)
	}
}

// TestReplicas_LoadNoneLostNoneTwice: users × 5 messages spread over three
// replicas, all at once; every message is answered, none twice, and the
// replicas fetch one access token between them.
func TestReplicas_LoadNoneLostNoneTwice(t *testing.T) {
	load, limit := wecomtest.LoadFromEnv(t, 200, 1000)
	wecom := wecomtest.NewServer(t, clustertest.CorpID, clustertest.Secret, limit)
	release := make(chan struct{})
	model := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		return llmtest.Step{Content: wecomtest.Answer(req), Wait: release}
	})
	_, rs := startReplicas(t, 3, wecom, limit, model, 0)
	res := clustertest.Load(t, wecom, rs, load, release, nil)
	t.Log(res)
	if res.Lost != 0 || res.Twice != 0 {
		t.Fatal(res)
	}
	if st := wecom.Stats(); st.GetToken != 1 || st.OverLimit != 0 {
		t.Fatalf("WeCom saw %+v; want one token and nothing over the limit", st)
	}
}

// TestReplicas_DeadReplicasTaskIsTakenOver: the replica running a task
// loses NATS without acknowledging it (it died); after the ack wait another
// replica runs the task and answers, and the dead one's late answer does
// not go out.
func TestReplicas_DeadReplicasTaskIsTakenOver(t *testing.T) {
	wecom := wecomtest.NewServer(t, clustertest.CorpID, clustertest.Secret, 0)
	started, hold := make(chan struct{}, 1), make(chan struct{})
	var asked atomic.Int32
	model := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		if asked.Add(1) == 1 {
			started <- struct{}{}
			return llmtest.Step{Content: wecomtest.Answer(req), Wait: hold}
		}
		return llmtest.Step{Content: wecomtest.Answer(req)}
	})
	url, rs := startReplicas(t, 1, wecom, 0, model, 2*time.Second)
	dying := rs[0]
	if status, _, err := dying.CB.Text("bob", "msg-9", "u1-m0 please"); err != nil || status != 200 {
		t.Fatalf("status %d, %v", status, err)
	}
	<-started // the dying replica runs it
	other := clustertest.StartReplica(t, clustertest.ReplicaOptions{
		Name: "replica-1", NATSURL: url, Model: model.URL, Bot: clustertest.BotConfig(wecom), AckWait: 2 * time.Second,
	})
	dying.Die()
	waitAnswer(t, wecom, "bob")
	if _, over := other.Tasks.Counts(); over != 1 {
		t.Errorf("%d tasks taken over, want 1", over)
	}
	close(hold) // the dead replica's run ends; its answer must not go out
	dying.Close()
	other.Close()
	if got := answers(wecom, "bob"); len(got) != 1 || got[0] != "done: u1-m0" {
		t.Fatalf("bob was sent %q, want one answer", wecom.Messages("bob"))
	}
	if !strings.Contains(dying.Logs(), "taken over by another replica") {
		t.Errorf("the dead replica's log does not say its answer was held back:\n%s", dying.Logs())
	}
}

// withoutStreams is a cluster that keeps no streamed replies.
type withoutStreams struct{ chat.Shared }

func (withoutStreams) Streams() chat.Streams { return nil }

// TestReplicas_PlatformWithoutRepliesAnywhereRefused: the intelligent bot
// replies through streams; without them shared it cannot run as a
// replica, and New says so, in the user's terms.
func TestReplicas_PlatformWithoutRepliesAnywhereRefused(t *testing.T) {
	srv := clustertest.Start(t)
	cl, err := cluster.Open(t.Context(), cluster.Options{Config: config.Cluster{NATSURL: srv.URL}})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	st, err := store.Open(filepath.Join(t.TempDir(), "hermes.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	model := llmtest.NewFuncServer(t, func(llmtest.Request) llmtest.Step { return llmtest.Step{Content: "x"} })
	cfg := config.WithBotKeys(config.Bot{Platform: wecom.BotName, WebhookSecret: clustertest.Token}, wecom.Keys{EncodingAESKey: clustertest.AESKey})
	unshared := bot.SharedBy(cl)
	unshared.Platform = withoutStreams{unshared.Platform}
	_, err = bot.New(bot.Options{
		Setup: agent.Setup{Home: t.TempDir(), Model: llm.New(llm.Config{BaseURL: model.URL, Model: "m"}), Tools: toolbox.NewRegistry()},
		Runs:  runner.New(runner.Options{Home: t.TempDir(), Store: st, Bus: event.NewBus()}), Store: st, Config: cfg,
		Shared: unshared,
	})
	if !errors.Is(err, bot.ErrClusterPlatform) || !strings.Contains(err.Error(), `nats_url = ""`) {
		t.Fatalf("New = %v, want ErrClusterPlatform saying what to do", err)
	}
}
