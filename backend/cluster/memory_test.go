package cluster_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"hermes/backend/agent"
	"hermes/backend/cluster/clustertest"
	"hermes/backend/llm/llmtest"
	"hermes/backend/wecom/wecomtest"
)

// recalled is the long-term memory a request was given, "" when none.
func recalled(req llmtest.Request) string {
	for _, m := range req.Messages {
		if i := strings.Index(m.Content, "Long-term memory from earlier runs"); i >= 0 {
			return m.Content[i:]
		}
	}
	return ""
}

// TestMemory_FollowsTheUserToAnotherReplica: a task of alice's on one
// replica learns something; her next task, run by another replica (the
// first has gone), recalls it; bob's, on that replica too, does not; and
// a secret in the answer is not what travels.
func TestMemory_FollowsTheUserToAnotherReplica(t *testing.T) {
	wecom := wecomtest.NewServer(t, clustertest.CorpID, clustertest.Secret, 0)
	gave := make(chan string, 8)
	model := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		gave <- recalled(req)
		return llmtest.Step{Content: "The harbour code of Zorgland is ZX-4471 (key " + clustertest.Secret + ")."}
	})
	srv := clustertest.Start(t)
	start := func(name string) *clustertest.Replica {
		return clustertest.StartReplica(t, clustertest.ReplicaOptions{
			Name: name, NATSURL: srv.URL, Model: model.URL, Bot: clustertest.BotConfig(wecom), Memory: agent.MemoryOn,
		})
	}
	answered := map[string]int{}
	ask := func(r *clustertest.Replica, user, id, text string) string {
		t.Helper()
		if status, _, err := r.CB.Text(user, id, text); err != nil || status != 200 {
			t.Fatalf("%s: status %d, %v", r.Name, status, err)
		}
		answered[user]++
		want := answered[user]
		ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
		defer cancel()
		err := wecom.WaitFor(ctx, func(m map[string][]string) bool {
			n := 0
			for _, msg := range m[user] {
				if strings.Contains(msg, "ZX-4471") {
					n++
				}
			}
			return n == want
		})
		if err != nil {
			t.Fatal(err)
		}
		return <-gave
	}

	first := start("replica-1")
	if got := ask(first, "alice", "a1", "find the harbour code of Zorgland"); got != "" {
		t.Fatalf("alice's first task recalled %q", got)
	}
	first.Close()
	second := start("replica-2")
	got := ask(second, "alice", "a2", "harbour code of Zorgland again, please")
	if !strings.Contains(got, "ZX-4471") {
		t.Fatalf("alice's task on another replica did not recall her first: %q", got)
	}
	if strings.Contains(got, clustertest.Secret) {
		t.Errorf("a secret travelled with the memory: %q", got)
	}
	if got := ask(second, "bob", "b1", "what is the harbour code of Zorgland?"); strings.Contains(got, "ZX-4471") {
		t.Errorf("bob recalled alice's memory: %q", got)
	}
}
