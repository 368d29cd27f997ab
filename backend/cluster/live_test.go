package cluster_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"hermes/backend/agent"
	"hermes/backend/cluster"
	"hermes/backend/cluster/clustertest"
	"hermes/backend/config"
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runapi"
	"hermes/backend/runner"
	"hermes/backend/toolbox"
)

// observe attaches to the cluster at url as the window and `hermes serve`
// do, over a home of their own with no runs.
func observe(t *testing.T, url string) runapi.Runs {
	t.Helper()
	ob, err := cluster.Observe(cluster.Options{Config: config.Cluster{NATSURL: url}, Name: "observer"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ob.Close)
	local := runner.New(runner.Options{Home: t.TempDir()})
	t.Cleanup(func() { _ = local.Shutdown(t.Context()) })
	return ob.Merge(local)
}

// next reads w until an event for which stop is true (nil: the end), and
// returns the events read, checking that they come in seq order from after.
func next(t *testing.T, w *runapi.Watcher, after int64, stop func(event.Event) bool) []event.Event {
	t.Helper()
	var got []event.Event
	deadline := time.After(30 * time.Second)
	for {
		events, more := w.Next()
		for _, e := range events {
			if e.Seq <= after || (e.Seq != after+1 && !e.Type.Droppable()) {
				t.Fatalf("seq %d after %d", e.Seq, after)
			}
			after = e.Seq
			got = append(got, e)
			if stop != nil && stop(e) {
				return got
			}
		}
		if more == nil {
			if stop != nil {
				t.Fatalf("the run's leg ended before the event waited for: %s", typesOf(got))
			}
			return got
		}
		select {
		case <-more:
		case <-deadline:
			t.Fatalf("no event came in 30 s after %s", typesOf(got))
		}
	}
}

// waitFeed reads feed until a summary of run id for which until is true;
// each of its summaries must name replica-1.
func waitFeed(t *testing.T, feed *runapi.Feed, id string, until func(runner.Summary) bool) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		select {
		case <-feed.Ready():
		case <-deadline:
			t.Fatal("the feed did not tell of the change in 30 s")
		}
		for _, s := range feed.Take() {
			if s.RunID != id {
				continue
			}
			if s.Replica != "replica-1" {
				t.Fatalf("the feed's summary %+v lacks its replica", s)
			}
			if until(s) {
				return
			}
		}
	}
}

func typeIs(ty event.Type) func(event.Event) bool {
	return func(e event.Event) bool { return e.Type == ty }
}

func typesOf(events []event.Event) string {
	s := make([]string, len(events))
	for i, e := range events {
		s[i] = string(e.Type)
	}
	return strings.Join(s, " ")
}

func toolCall(id, name, args string) []llm.ToolCall {
	return []llm.ToolCall{{ID: id, Name: name, Arguments: args}}
}

// TestLive_ObserverSteersAnotherReplicasRun: a run on replica-1, whose
// model waits, is in an observer's list with its replica; its events
// stream to the observer; a pause, an instruction and a resume sent to the
// observer reach the run; a control for a run no one has is refused.
func TestLive_ObserverSteersAnotherReplicasRun(t *testing.T) {
	url := clustertest.Start(t).URL
	hold := make(chan struct{})
	model := llmtest.NewServer(t,
		llmtest.Step{Content: "Listing.", ToolCalls: toolCall("c1", "list_files", `{}`), Wait: hold},
		llmtest.Step{Content: "Done."},
	)
	clustertest.StartRunReplica(t, url, "replica-0", model.URL, nil)
	r1 := clustertest.StartRunReplica(t, url, "replica-1", model.URL, nil)
	release := sync.OnceFunc(func() { close(hold) })
	t.Cleanup(release) // before the replicas stop, should the test fail early
	clustertest.WaitReplicas(t, url, func(m map[string]cluster.Replica) bool { return len(m) == 2 })
	id, err := r1.Runs.Start(t.Context(), runner.StartRequest{Task: "list the workspace"})
	if err != nil {
		t.Fatal(err)
	}
	runs := observe(t, url)

	list, err := runs.List()
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(list, func(s runner.Summary) bool { return s.RunID == id })
	if i < 0 || list[i].Replica != "replica-1" || !list[i].Live || list[i].Task != "list the workspace" {
		t.Fatalf("the observer lists %+v; want run %s live on replica-1", list, id)
	}
	feed := runs.Feed()
	defer feed.Close()

	w, err := runs.Watch(id, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := runs.Control(id, agent.Control{Kind: agent.ControlPause}); err != nil {
		t.Fatal(err)
	}
	release()
	seen := next(t, w, 0, typeIs(event.RunPaused))
	if seen[0].Type != event.RunStarted {
		t.Fatalf("the stream began with %s", seen[0].Type)
	}
	// The observer's feed hears of the pause, with the replica.
	waitFeed(t, feed, id, func(s runner.Summary) bool { return s.Paused })
	if err := runs.Control(id, agent.Control{Kind: agent.ControlInject, Text: "also say how many files there are"}); err != nil {
		t.Fatal(err)
	}
	if err := runs.Control(id, agent.Control{Kind: agent.ControlResume}); err != nil {
		t.Fatal(err)
	}
	rest := next(t, w, seen[len(seen)-1].Seq, nil)
	if got := typesOf(rest); !strings.Contains(got, "instruction.injected") || !strings.Contains(got, "run.resumed") || !strings.HasSuffix(got, "run.finished") {
		t.Fatalf("after the pause: %s", got)
	}
	last := model.Requests()[len(model.Requests())-1]
	if !slices.ContainsFunc(last.Messages, func(m llm.Message) bool {
		return m.Role == llm.RoleUser && strings.Contains(m.Content, "also say how many files there are")
	}) {
		t.Errorf("the model was not told the instruction: %+v", last.Messages)
	}
	// The observer's feed heard of the end, with the replica.
	waitFeed(t, feed, id, func(s runner.Summary) bool { return !s.Live })
	// The events so far come from the replica too, the same as streamed.
	all, err := runs.Events(id)
	if err != nil || len(all) != len(seen)+len(rest) {
		t.Fatalf("events: %d, %v; want %d", len(all), err, len(seen)+len(rest))
	}

	err = runs.Control("20260101-no-such-run", agent.Control{Kind: agent.ControlPause})
	if e := runner.Explain(err); e.Code != "run_not_found" {
		t.Fatalf("a control for an unknown run: %+v", e)
	}
	// A finished run's controls are refused by its replica, as locally.
	if e := runner.Explain(runs.Control(id, agent.Control{Kind: agent.ControlPause})); e.Code != "not_live" {
		t.Fatalf("a control for a finished run: %+v", e)
	}
}

// askWrites asks before every call that writes.
type askWrites struct{}

func (askWrites) Check(t toolbox.Tool, _ json.RawMessage, _ toolbox.Env) toolbox.Verdict {
	if t.Risk == toolbox.RiskWrite {
		return toolbox.Verdict{Action: toolbox.Ask, Reason: "writes need approval"}
	}
	return toolbox.Verdict{Action: toolbox.Allow}
}

func (askWrites) AllowAlways(toolbox.Tool, string) error { return nil }

// TestLive_ApprovalReachesTheReplica: a call behind approval on replica-0
// is allowed through the observer; a replica that is gone is said to be.
func TestLive_ApprovalReachesTheReplica(t *testing.T) {
	url := clustertest.Start(t).URL
	model := llmtest.NewServer(t,
		llmtest.Step{ToolCalls: toolCall("w1", "write_file", `{"path":"a.txt","content":"a"}`)},
		llmtest.Step{Content: "Wrote a.txt."},
	)
	r0 := clustertest.StartRunReplica(t, url, "replica-0", model.URL, askWrites{})
	clustertest.WaitReplicas(t, url, func(m map[string]cluster.Replica) bool { return len(m) == 1 })
	runs := observe(t, url)
	id, err := r0.Runs.Start(t.Context(), runner.StartRequest{Task: "write a.txt"})
	if err != nil {
		t.Fatal(err)
	}
	// Not listed yet: the watch reads the list again for a run it does not know.
	w, err := runs.Watch(id, 0)
	if err != nil {
		t.Fatal(err)
	}
	seen := next(t, w, 0, typeIs(event.ApprovalRequested))
	asked, err := event.Decode[event.ApprovalRequestedData](seen[len(seen)-1])
	if err != nil {
		t.Fatal(err)
	}
	if err := runs.Approve(id, asked.ApprovalID, runner.Answer{Decision: "allow_once"}); err != nil {
		t.Fatal(err)
	}
	rest := next(t, w, seen[len(seen)-1].Seq, nil)
	if got := typesOf(rest); !strings.Contains(got, "approval.resolved") || !strings.HasSuffix(got, "run.finished") {
		t.Fatalf("after the approval: %s", got)
	}
	if e := runner.Explain(runs.Approve(id, asked.ApprovalID, runner.Answer{Decision: "allow_once"})); e.Code != "no_approval" && e.Code != "not_live" {
		t.Fatalf("a second answer: %+v", e)
	}

	r0.Close()
	e := runner.Explain(runs.Control(id, agent.Control{Kind: agent.ControlPause}))
	if e.Code != "replica_gone" || !strings.Contains(e.Message["en"], "replica-0") || !strings.Contains(e.Message["zh-CN"], "replica-0") {
		t.Fatalf("a control for a run whose replica is gone: %+v", e)
	}
}

// lossyRuns is a replica's runs whose relayed events lose every third one,
// as NATS may drop messages to a slow subscriber.
type lossyRuns struct {
	*runner.Manager
	bus *event.Bus
}

func (l lossyRuns) Bus() *event.Bus { return l.bus }

// TestLive_LostEventsAreFetchedAgain: a watcher of a replica's run whose
// relayed events lose every third still gets every event once, in order:
// the observer asks the replica for what it missed.
func TestLive_LostEventsAreFetchedAgain(t *testing.T) {
	url := clustertest.Start(t).URL
	model := llmtest.NewServer(t,
		llmtest.Step{Content: "Listing.", ToolCalls: toolCall("c1", "list_files", `{}`)},
		llmtest.Step{Content: "Listing again.", ToolCalls: toolCall("c2", "list_files", `{}`)},
		llmtest.Step{Content: "Done.", Chunks: 5},
	)
	home, ws := t.TempDir(), t.TempDir()
	toml := fmt.Sprintf("[model]\nbase_url = %q\nmodel = \"test-model\"\nmax_retries = 0\n\n[agent]\nstrategy = \"react\"\nroute = false\nworkspace = %q\n", model.URL, ws)
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	manager := runner.New(runner.Options{Home: home, Getenv: func(k string) string {
		if k == "OPENAI_API_KEY" {
			return clustertest.ModelKey
		}
		return ""
	}})
	defer manager.Shutdown(context.Background())
	cl, err := cluster.Open(t.Context(), cluster.Options{Config: config.Cluster{NATSURL: url}, Name: "replica-lossy", AckWait: 1500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	stopTasks, err := cl.Tasks().Consume(func(_ []byte, settle func(bool) error) { _ = settle(false) })
	if err != nil {
		t.Fatal(err)
	}
	defer stopTasks()
	lossy := lossyRuns{Manager: manager, bus: event.NewBus()}
	sub := manager.Bus().Subscribe(4096, nil)
	defer manager.Bus().Unsubscribe(sub)
	go func() {
		for e := range sub.C {
			if e.Seq%3 != 0 {
				lossy.bus.Publish(e)
			}
		}
	}()
	stopRuns, err := cl.ServeRuns(lossy)
	if err != nil {
		t.Fatal(err)
	}
	defer stopRuns()
	clustertest.WaitReplicas(t, url, func(m map[string]cluster.Replica) bool { return len(m) == 1 })

	ob, err := cluster.Observe(cluster.Options{Config: config.Cluster{NATSURL: url}, Name: "observer"})
	if err != nil {
		t.Fatal(err)
	}
	defer ob.Close()
	runs := ob.Merge(runner.New(runner.Options{Home: t.TempDir()}))
	id, err := manager.Start(t.Context(), runner.StartRequest{Task: "list the workspace twice"})
	if err != nil {
		t.Fatal(err)
	}
	w, err := runs.Watch(id, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := next(t, w, 0, nil)
	logged, err := manager.Events(id)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(logged) || got[len(got)-1].Type != event.RunFinished {
		t.Fatalf("the watcher got %d events (%s), the log has %d", len(got), typesOf(got), len(logged))
	}
}
