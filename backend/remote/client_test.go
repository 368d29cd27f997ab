package remote_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"hermes/backend/agent"
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/remote"
	"hermes/backend/runapi"
	"hermes/backend/runner"
)

// dial attaches to o and detaches when the test ends.
func dial(t *testing.T, o *owner) *remote.Client {
	t.Helper()
	c, err := remote.Dial(t.Context(), o.lock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.Shutdown(context.Background()); err != nil {
			t.Errorf("detach: %v", err)
		}
	})
	return c
}

// drain returns every event a watcher gives until the run's leg is over.
func drain(w *runapi.Watcher) []event.Event {
	var all []event.Event
	for {
		events, more := w.Next()
		all = append(all, events...)
		if more == nil {
			return all
		}
		<-more
	}
}

func TestClient_SeesAndStopsTheOwnersLiveRun(t *testing.T) {
	hold := make(chan struct{})
	o := newOwner(t, llmtest.NewServer(t,
		llmtest.Step{Content: "Looking.", ToolCalls: []llm.ToolCall{{ID: "c1", Name: "list_files", Arguments: `{}`}}, Wait: hold},
		llmtest.Step{Content: "Done."},
	))
	c := dial(t, o)
	sub := c.Bus().Subscribe(1024, nil)
	feed := c.Feed()
	defer feed.Close()

	// A run the owner started itself is seen live through the client.
	id, err := o.runs.Start(t.Context(), runner.StartRequest{Task: "look around"})
	if err != nil {
		t.Fatal(err)
	}
	for e := range sub.C {
		if e.RunID == id && e.Type == event.ContextBuilt {
			break
		}
	}
	runs, err := c.List()
	if err != nil || len(runs) == 0 || runs[0].RunID != id || !runs[0].Live {
		t.Fatalf("List: %+v, %v", runs, err)
	}
	w, err := c.Watch(id, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Control(id, agent.Control{Kind: agent.ControlStop}); err != nil {
		t.Fatal(err)
	}
	close(hold)
	watched := drain(w)
	if len(watched) == 0 || watched[0].Type != event.RunStarted || watched[len(watched)-1].Type != event.RunFinished {
		t.Fatalf("watched %d events, from %v", len(watched), watched)
	}
	if d, _ := event.Decode[event.RunFinishedData](watched[len(watched)-1]); d.Status != event.StatusStopped {
		t.Errorf("the run ended %q, want stopped", d.Status)
	}
	logged, err := c.Events(id)
	if err != nil || !slices.EqualFunc(logged, watched, func(a, b event.Event) bool { return a.Seq == b.Seq && a.Type == b.Type }) {
		t.Errorf("the owner logged %d events, the client watched %d (%v)", len(logged), len(watched), err)
	}
	// The feed says the run's leg is over.
	for ended := false; !ended; {
		<-feed.Ready()
		for _, s := range feed.Take() {
			ended = ended || s.RunID == id && !s.Live
		}
	}

	// The owner's refusals keep their code and messages.
	err = c.Control(id, agent.Control{Kind: agent.ControlStop})
	if e := runner.Explain(err); e.Code != "not_live" {
		t.Errorf("stop of an ended run: %+v (%v)", e, err)
	}
	err = c.Approve(id, "a1", runner.Answer{Decision: "maybe"})
	if e := runner.Explain(err); e.Code != "bad_decision" || e.Message["en"] == "" || e.Message["zh-CN"] == "" {
		t.Errorf("bad decision: %+v", e)
	}
}

func TestClient_StartsRunsInTheOwner(t *testing.T) {
	o := newOwner(t, llmtest.NewServer(t, llmtest.Step{Content: "Hello there."}))
	c := dial(t, o)
	id, err := c.Start(t.Context(), runner.StartRequest{Task: "say hello"})
	if err != nil {
		t.Fatal(err)
	}
	w, err := c.Watch(id, 0)
	if err != nil {
		t.Fatal(err)
	}
	events := drain(w)
	d, err := event.Decode[event.RunFinishedData](events[len(events)-1])
	if err != nil || d.Status != event.StatusFinished || d.Answer != "Hello there." {
		t.Fatalf("run.finished %+v, %v", d, err)
	}
	// Watching it again, after its end, replays the owner's log.
	again, err := c.Watch(id, 2)
	if err != nil {
		t.Fatal(err)
	}
	if replayed := drain(again); len(replayed) != len(events)-2 || replayed[0].Seq != 3 {
		t.Errorf("replayed %d events after seq 2, of %d", len(replayed), len(events))
	}
	if _, err := c.Watch("no-such-run", 0); runner.Explain(err).Code != "run_not_found" {
		t.Errorf("unknown run: %v", err)
	}
	if s, err := c.Settings(); err != nil || s.Home != o.home || s.HasKey != true {
		t.Errorf("Settings: %+v, %v", s, err)
	}
}

func TestClient_OwnerGone(t *testing.T) {
	o := newOwner(t, llmtest.NewServer(t))
	c := dial(t, o)
	o.exit()
	<-c.Gone()
	if _, err := c.List(); !errors.Is(err, remote.ErrOwnerGone) {
		t.Errorf("List after the owner left: %v", err)
	}
}

// The owner takes a change only as JSON, bodyless ones too (Delete), so the
// client declares it on every call that is not a GET.
func TestClient_RenamesAndDeletesInTheOwner(t *testing.T) {
	o := newOwner(t, llmtest.NewServer(t, llmtest.Step{Content: "Hello there."}))
	c := dial(t, o)
	id, err := c.Start(t.Context(), runner.StartRequest{Task: "say hello"})
	if err != nil {
		t.Fatal(err)
	}
	w, err := c.Watch(id, 0)
	if err != nil {
		t.Fatal(err)
	}
	drain(w)
	if err := c.Rename(id, "Greeting"); err != nil {
		t.Fatalf("Rename: %v", err)
	}
	if err := c.Delete(id); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	runs, err := c.List()
	if err != nil || slices.ContainsFunc(runs, func(s runner.Summary) bool { return s.RunID == id }) {
		t.Fatalf("after Delete: %+v, %v", runs, err)
	}
}
