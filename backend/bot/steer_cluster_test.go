package bot_test

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

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

// stoppable is the cluster's task queue with a way for the test to make
// its replica stop taking tasks, so that the next message goes to another.
type stoppable struct {
	q    *cluster.Tasks
	mu   sync.Mutex
	stop func()
}

func (s *stoppable) Publish(ctx context.Context, id string, task []byte) (bool, error) {
	return s.q.Publish(ctx, id, task)
}

func (s *stoppable) Consume(take func([]byte, func(bool) error)) (func(), error) {
	stop, err := s.q.Consume(take)
	s.mu.Lock()
	s.stop = stop
	s.mu.Unlock()
	return stop, err
}

// stopTaking makes the replica take no more tasks; those it holds stay its.
func (s *stoppable) stopTaking() {
	s.mu.Lock()
	stop := s.stop
	s.mu.Unlock()
	stop()
}

type steerReplica struct {
	bot   *bot.Bot
	tasks *stoppable
	bus   *event.Bus
	cb    *wecomtest.Callbacks
}

// startSteerReplica starts a bot replica on a home of its own, sharing
// the cluster at url; each of with changes the runs' setup.
func startSteerReplica(t *testing.T, url string, model *llmtest.Server, cfg config.Bot, name string, with ...func(*agent.Setup)) *steerReplica {
	t.Helper()
	cl, err := cluster.Open(t.Context(), cluster.Options{Config: config.Cluster{NATSURL: url}, Name: name})
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	st, err := store.Open(filepath.Join(home, "hermes.db"))
	if err != nil {
		t.Fatal(err)
	}
	reg := toolbox.NewRegistry()
	for _, tool := range toolbox.FileTools(nil) {
		if err := reg.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
	r := &steerReplica{tasks: &stoppable{q: cl.Tasks()}, bus: event.NewBus()}
	shared := bot.SharedBy(cl)
	shared.Tasks = r.tasks
	logs := &syncBuffer{}
	setup := agent.Setup{
		Home: home, Redactor: runlog.NewRedactor(testKey, testSecret, testToken, testAESKey), Tools: reg,
		Model:     llm.New(llm.Config{BaseURL: model.URL, APIKey: testKey, Model: "test-model", Stream: true, Backoff: noBackoff}),
		ModelName: "test-model", BaseURL: model.URL,
	}
	for _, f := range with {
		f(&setup)
	}
	b, err := bot.New(bot.Options{
		Setup: setup,
		Runs:  runner.New(runner.Options{Home: home, Store: st, Bus: r.bus}),
		Store: st, Config: cfg, APIBackoff: noBackoff,
		Log:    slog.New(slog.NewTextHandler(logs, nil)),
		Shared: shared,
	})
	if err != nil {
		t.Fatal(err)
	}
	r.bot = b
	hs := httptest.NewServer(b.Handler())
	if r.cb, err = wecomtest.NewCallbacks(hs.URL+cfg.CallbackPath(), testToken, testAESKey, testCorpID); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		if err := b.Shutdown(ctx); err != nil {
			t.Errorf("%s: shutdown: %v", name, err)
		}
		hs.Close()
		cl.Close()
		st.Close()
		for _, s := range secrets {
			if strings.Contains(logs.String(), s) {
				t.Errorf("%s's log holds a secret (%.6s…)", name, s)
			}
		}
	})
	return r
}

func (r *steerReplica) send(t *testing.T, from, msgID, text string) {
	t.Helper()
	if status, _, err := r.cb.Text(from, msgID, text); err != nil || status != 200 {
		t.Fatalf("callback %q: status %d, %v", text, status, err)
	}
}

// count is how many of the messages sent to user hold want.
func count(wecom *wecomtest.Server, user, want string) int {
	n := 0
	for _, text := range wecom.Messages(user) {
		if strings.Contains(text, want) {
			n++
		}
	}
	return n
}

// heldStep is a model that asks for a tool call held until release, then
// answers "done".
func heldStep(t *testing.T, release chan struct{}) (*llmtest.Server, <-chan struct{}) {
	arrived := make(chan struct{}, 1)
	var mu sync.Mutex
	n := 0
	return llmtest.NewFuncServer(t, func(llmtest.Request) llmtest.Step {
		mu.Lock()
		n++
		first := n == 1
		mu.Unlock()
		if first {
			arrived <- struct{}{}
			return llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "c1", Name: "list_files", Arguments: `{"path":"."}`}}, Wait: release}
		}
		return llmtest.Step{Content: "done"}
	}), arrived
}

// heldElsewhere starts replica 1 with user's task held at its model
// request until release is closed, then replica 2, which takes the user's
// next messages.
func heldElsewhere(t *testing.T, user string) (r1, r2 *steerReplica, wecom *wecomtest.Server, release chan struct{}) {
	srv := clustertest.Start(t)
	wecom = wecomtest.NewServer(t, testCorpID, testSecret, 0)
	release = make(chan struct{})
	model, arrived := heldStep(t, release)
	cfg := botConfig(wecom)
	r1 = startSteerReplica(t, srv.URL, model, cfg, "replica-1")
	r1.send(t, user, "m1", "list my files")
	<-arrived // the run waits on the model, on replica 1
	r1.tasks.stopTaking()
	r2 = startSteerReplica(t, srv.URL, model, cfg, "replica-2")
	return r1, r2, wecom, release
}

// A /stop taken by a replica other than the one running the user's task
// stops the task there: the sender hears that it stops, then where it
// stopped, once; with the run over, a /stop is answered as by one bot.
func TestReplica_StopReachesTheRunOnAnotherReplica(t *testing.T) {
	_, r2, wecom, release := heldElsewhere(t, "frank")

	r2.send(t, "frank", "m2", "/stop")
	waitMessage(t, wecom, "frank", "Stopping at the next safe point")
	close(release)
	waitMessage(t, wecom, "frank", "Stopped at step 1")

	r2.send(t, "frank", "m3", "/stop")
	got := waitMessage(t, wecom, "frank", "Nothing is running")
	if count(wecom, "frank", "Stopping at the next safe point") != 1 || count(wecom, "frank", "Stopped at step") != 1 || len(got) != 3 {
		t.Fatalf("frank was sent %q, want the stop's notice, the stopped answer and the idle reply, once each", got)
	}
}

// /pause and /resume taken by another replica pause the run where it
// runs and let it go on, with the replies one bot gives; the answer goes
// out once.
func TestReplica_PauseAndResumeReachTheRunOnAnotherReplica(t *testing.T) {
	r1, r2, wecom, release := heldElsewhere(t, "grace")
	paused := r1.bus.Subscribe(16, func(e event.Event) bool { return e.Type == event.RunPaused })

	r2.send(t, "grace", "m2", "/continue")
	waitMessage(t, wecom, "grace", "The task is running, not paused")
	r2.send(t, "grace", "m3", "/暂停")
	waitMessage(t, wecom, "grace", "将在下一步暂停")
	close(release)
	<-paused.C
	r2.send(t, "grace", "m4", "/continue")
	waitMessage(t, wecom, "grace", "Going on.")
	got := waitMessage(t, wecom, "grace", "done")
	if count(wecom, "grace", "done") != 1 || len(got) != 4 {
		t.Fatalf("grace was sent %q, want three replies to the commands and the answer once", got)
	}
}

// The answer to the run's question, taken by a replica other than the one
// running the task, reaches the run there: the run goes on with it, and
// the user hears the task's answer once, not a task of its own.
func TestReplica_AnswerReachesTheQuestionOnAnotherReplica(t *testing.T) {
	srv := clustertest.Start(t)
	wecom := wecomtest.NewServer(t, testCorpID, testSecret, 0)
	model := guessingModel(t)
	cfg := botConfig(wecom)
	plan := func(s *agent.Setup) { s.Strategy = agent.StrategyPlan }

	r1 := startSteerReplica(t, srv.URL, model, cfg, "replica-1", plan)
	ws := r1.bot.Workspace("wecom", "judy")
	if err := os.MkdirAll(filepath.Join(ws, "notes"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "notes", "june.md"), []byte("We agreed on the budget."), 0o600); err != nil {
		t.Fatal(err)
	}
	r1.send(t, "judy", "m1", "Summarise the notes of the June meeting")
	waitMessage(t, wecom, "judy", "❓")
	r1.tasks.stopTaking()
	r2 := startSteerReplica(t, srv.URL, model, cfg, "replica-2", plan)

	r2.send(t, "judy", "m2", "notes/june.md")
	waitMessage(t, wecom, "judy", "Thanks; the task goes on with your answer.")
	got := waitMessage(t, wecom, "judy", "The meeting agreed on the budget.")
	if count(wecom, "judy", "The meeting agreed on the budget.") != 1 || len(got) != 3 {
		t.Fatalf("judy was sent %q, want the question, the thanks and the answer, once each", got)
	}
}

// /new taken by another replica stops the run where it runs, as one bot
// does, and starts the fresh conversation.
func TestReplica_NewStopsTheRunOnAnotherReplica(t *testing.T) {
	_, r2, wecom, release := heldElsewhere(t, "kate")

	r2.send(t, "kate", "m2", "/新会话")
	waitMessage(t, wecom, "kate", "已停止正在进行的任务，并开始新的对话")
	close(release)
	got := waitMessage(t, wecom, "kate", "Stopped at step 1")
	if count(wecom, "kate", "Stopped at step") != 1 || len(got) != 2 {
		t.Fatalf("kate was sent %q, want the fresh conversation's notice and the stopped answer, once each", got)
	}
}

// An instruction another replica takes while the user's run is live here
// is a task of its own there, held by its lease until answered: added to
// this run, it would be settled on the word of a replica that may die
// before the instruction reaches a copied checkpoint. Both are answered.
func TestReplica_InstructionTakenElsewhereIsATaskThere(t *testing.T) {
	srv := clustertest.Start(t)
	wecom := wecomtest.NewServer(t, testCorpID, testSecret, 0)
	model, arrived, release := blockingModel(t, llmtest.Step{Content: "the first answer"}, func(req llmtest.Request) llmtest.Step {
		return llmtest.Step{Content: "answer to: " + taskOf(req)}
	})
	cfg := botConfig(wecom)

	r1 := startSteerReplica(t, srv.URL, model, cfg, "replica-1")
	r1.send(t, "mia", "m1", "first task")
	<-arrived
	r1.tasks.stopTaking()
	r2 := startSteerReplica(t, srv.URL, model, cfg, "replica-2")

	r2.send(t, "mia", "m2", "also check the PDFs")
	waitMessage(t, wecom, "mia", "answer to: also check the PDFs")
	close(release)
	got := waitMessage(t, wecom, "mia", "the first answer")
	for _, text := range got {
		if strings.Contains(text, "Added to the task") {
			t.Errorf("mia was told %q: the instruction was added to the run on the other replica", text)
		}
	}
}
