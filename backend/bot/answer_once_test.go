package bot_test

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"hermes/backend/cluster/clustertest"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/wecom/wecomtest"
)

// TestReplica_MergedRunWithATakenOverMessageIsNotAnswered: a user's second
// message is injected into the run of the first on one replica; before the
// run's answer goes out, another replica claims the second message's lease
// (it runs and answers it). The merged answer, which names both, does not
// go out: the first message is handed back and answered on its own, so each
// message is answered once.
func TestReplica_MergedRunWithATakenOverMessageIsNotAnswered(t *testing.T) {
	srv := clustertest.Start(t)
	wecom := wecomtest.NewServer(t, clustertest.CorpID, clustertest.Secret, 0)
	release := make(chan struct{})
	first := make(chan struct{})
	var asked atomic.Int32
	model := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		if asked.Add(1) == 1 {
			close(first)
			// A step of tool calls, after which the run takes the
			// instruction injected meanwhile.
			return llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "c1", Name: "list_files", Arguments: `{"path":"."}`}}, Wait: release}
		}
		return llmtest.Step{Content: wecomtest.Answer(req)}
	})
	a := clustertest.StartReplica(t, clustertest.ReplicaOptions{
		Name: "a", NATSURL: srv.URL, Model: model.URL, Bot: clustertest.BotConfig(wecom),
	})
	if status, _, err := a.CB.Text("u1", "msg-1", "u1-m0 please"); err != nil || status != 200 {
		t.Fatalf("status %d, %v", status, err)
	}
	<-first
	if status, _, err := a.CB.Text("u1", "msg-2", "u1-m1 as well"); err != nil || status != 200 {
		t.Fatalf("status %d, %v", status, err)
	}
	waitMessage(t, wecom, "u1", "Added to the task")

	// Another replica claims the second message's lease, as a takeover does.
	nc, err := nats.Connect(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	inbox, err := js.Stream(t.Context(), "HERMES_BOT_INBOX")
	if err != nil {
		t.Fatal(err)
	}
	second, err := inbox.GetMsg(t.Context(), 2)
	if err != nil || !strings.Contains(string(second.Data), "u1-m1") {
		t.Fatalf("the second task is not at sequence 2: %v", err)
	}
	leases, err := js.KeyValue(t.Context(), "hermes_bot_leases")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := leases.Create(t.Context(), "2", []byte("taken")); err != nil {
		t.Fatal(err)
	}
	close(release)

	waitMessage(t, wecom, "u1", "done: u1-m0")
	var answers []string
	for _, m := range wecom.Messages("u1") {
		if strings.HasPrefix(m, "done:") {
			answers = append(answers, m)
		}
	}
	if len(answers) != 1 || answers[0] != "done: u1-m0" {
		t.Fatalf("u1 was answered %q, want the first message alone (the second is the other replica's)", answers)
	}
	if !strings.Contains(a.Logs(), "answer not sent") {
		t.Errorf("the answer held back is not logged:\n%s", a.Logs())
	}
}
