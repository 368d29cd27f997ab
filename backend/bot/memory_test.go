package bot_test

import (
	"strings"
	"testing"

	"hermes/backend/agent"
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

// Each chat user's conversation has a long-term memory of its own: a task
// recalls what that user's earlier tasks learnt, never another user's, and
// /new starts a conversation that remembers nothing.
func TestBot_EachConversationHasItsOwnMemory(t *testing.T) {
	wecom := wecomtest.NewServer(t, testCorpID, testSecret, 0)
	gave := make(chan string, 8)
	model := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		gave <- recalled(req)
		return llmtest.Step{Content: "The harbour code of Zorgland is ZX-4471."}
	})
	h := newHarness(t, "", model, botConfig(wecom), func(s *agent.Setup) { s.Memory = agent.MemoryOn })

	answers := map[string]int{}
	// ask sends a task and waits for its answer; it returns the memory the
	// task's request was given.
	ask := func(user, id, text string) string {
		t.Helper()
		h.send(user, id, text)
		answers[user]++
		want := answers[user]
		err := wecom.WaitFor(t.Context(), func(m map[string][]string) bool {
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
	if got := ask("alice", "a1", "find the harbour code of Zorgland"); got != "" {
		t.Fatalf("alice's first task recalled %q", got)
	}
	if got := ask("bob", "b1", "what is the harbour code of Zorgland?"); strings.Contains(got, "ZX-4471") {
		t.Errorf("bob recalled alice's memory: %q", got)
	}
	if got := ask("alice", "a2", "harbour code of Zorgland again, please"); !strings.Contains(got, "ZX-4471") {
		t.Errorf("alice's second task did not recall her first: %q", got)
	}
	h.send("alice", "a3", "/new")
	waitMessage(t, wecom, "alice", "Started a fresh conversation")
	if got := ask("alice", "a4", "the harbour code of Zorgland?"); strings.Contains(got, "ZX-4471") {
		t.Errorf("a /new conversation recalled the old one's memory: %q", got)
	}
}
