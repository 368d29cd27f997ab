package bot_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"hermes/backend/cluster/clustertest"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/wecom/wecomtest"
)

// TestReplica_CopyFailureDoesNotStopTheRun: the cluster's store of run
// copies is gone (JetStream refuses every copy); a replica's task of three
// steps runs on and is answered once, and the refusal is logged once.
func TestReplica_CopyFailureDoesNotStopTheRun(t *testing.T) {
	srv := clustertest.Start(t)
	wecom := wecomtest.NewServer(t, clustertest.CorpID, clustertest.Secret, 0)
	var asked atomic.Int32
	model := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		switch asked.Add(1) {
		case 1:
			return llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "c1", Name: "list_files", Arguments: `{"path":"."}`}}}
		case 2:
			return llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "c2", Name: "list_files", Arguments: `{"path":"./"}`}}}
		}
		return llmtest.Step{Content: wecomtest.Answer(req)}
	})
	r := clustertest.StartReplica(t, clustertest.ReplicaOptions{
		Name: "replica-0", NATSURL: srv.URL, Model: model.URL, Bot: clustertest.BotConfig(wecom),
	})
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
	if status, _, err := r.CB.Text("erin", "msg-5", "u4-m0 please"); err != nil || status != 200 {
		t.Fatalf("status %d, %v", status, err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	if err := wecom.WaitFor(ctx, func(m map[string][]string) bool { return len(m["erin"]) > 0 }); err != nil {
		t.Fatal(err)
	}
	r.Close()
	if got := wecom.Messages("erin"); len(got) != 1 || got[0] != "done: u4-m0" {
		t.Fatalf("erin was sent %q, want one answer", got)
	}
	if n := asked.Load(); n != 3 {
		t.Errorf("the model was asked %d times, want 3", n)
	}
	if n := strings.Count(r.Logs(), "not copied to the cluster"); n != 1 {
		t.Errorf("the refused copies were logged %d times, want once:\n%s", n, r.Logs())
	}
}
