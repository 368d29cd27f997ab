package cluster_test

import (
	"testing"

	"hermes/backend/cluster/clustertest"
	"hermes/backend/llm/llmtest"
	"hermes/backend/wecom/wecomtest"
)

// TestReplicas_KilledBetweenSeenAndQueuedIsNotLost: a replica killed after
// it took a message's id and before it queued the message must not make
// the resend look answered. Queuing is the one write that says a message
// was taken, so there is no moment between the two.
func TestReplicas_KilledBetweenSeenAndQueuedIsNotLost(t *testing.T) {
	wecom := wecomtest.NewServer(t, clustertest.CorpID, clustertest.Secret, 0)
	model := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		return llmtest.Step{Content: wecomtest.Answer(req)}
	})
	_, rs := startReplicas(t, 2, wecom, 0, model, 0)
	// What the first replica wrote for the message before SIGKILL.
	if first, err := rs[0].Cluster.Seen().First("wecom/msg-7"); err != nil || !first {
		t.Fatalf("First = %v, %v", first, err)
	}
	rs[0].Close()
	// WeCom had no answer, so it resends; the balancer picks the other.
	if status, _, err := rs[1].CB.Text("carol", "msg-7", "u2-m0 please"); err != nil || status != 200 {
		t.Fatalf("status %d, %v", status, err)
	}
	// And again, as WeCom does when an answer is slow: taken once.
	if status, _, err := rs[1].CB.Text("carol", "msg-7", "u2-m0 please"); err != nil || status != 200 {
		t.Fatalf("status %d, %v", status, err)
	}
	waitAnswer(t, wecom, "carol")
	rs[1].Close()
	if got := answers(wecom, "carol"); len(got) != 1 || got[0] != "done: u2-m0" {
		t.Fatalf("carol was sent %q, want one answer", wecom.Messages("carol"))
	}
}
