package bot_test

import (
	"sync"
	"testing"

	"hermes/backend/bot"
	"hermes/backend/llm/llmtest"
	"hermes/backend/wecom/wecomtest"
)

// A run over the bot's limit of live runs starts when one ends, and its
// sender is answered; the callback that brought it is not held up.
func TestBot_RunOverTheLimitStartsWhenOneEnds(t *testing.T) {
	wecom := wecomtest.NewServer(t, testCorpID, testSecret, 0)
	var mu sync.Mutex
	inFlight, most := 0, 0
	arrived, release := make(chan struct{}, 2), make(chan struct{})
	model := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		mu.Lock()
		inFlight++
		most = max(most, inFlight)
		first := len(arrived) == 0
		arrived <- struct{}{}
		mu.Unlock()
		if first {
			<-release
		}
		mu.Lock()
		inFlight--
		mu.Unlock()
		return llmtest.Step{Content: "answer to: " + taskOf(req)}
	})
	h := newHarness(t, "", model, botConfig(wecom))
	bot.LimitRuns(h.bot, 1)

	h.send("zhangsan", "m1", "first task")
	<-arrived
	h.send("lisi", "m2", "second task") // accepted while the first run holds the one place
	bot.WaitGated(h.bot, 1)
	close(release)
	waitMessage(t, wecom, "zhangsan", "answer to: first task")
	waitMessage(t, wecom, "lisi", "answer to: second task")
	mu.Lock()
	defer mu.Unlock()
	if most != 1 {
		t.Fatalf("%d model requests at once with a limit of one live run; want 1", most)
	}
}
