package cluster_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"hermes/backend/cluster/clustertest"
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runner"
	"hermes/backend/wecom/wecomtest"
)

// runCopies follows the copies of runs in the cluster's object store, as
// JetStream tells of each write.
func runCopies(t *testing.T, url string) (jetstream.ObjectStore, <-chan runner.RunCopy) {
	t.Helper()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	obj, err := js.ObjectStore(t.Context(), "hermes_bot_runs")
	if err != nil {
		t.Fatal(err)
	}
	w, err := obj.Watch(t.Context(), jetstream.UpdatesOnly())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Stop() })
	out := make(chan runner.RunCopy, 64)
	go func() {
		for info := range w.Updates() {
			if info == nil || info.Deleted {
				continue
			}
			data, err := obj.GetBytes(context.Background(), info.Name)
			if err != nil {
				continue // replaced or deleted since
			}
			var c runner.RunCopy
			if json.Unmarshal(data, &c) == nil {
				out <- c
			}
		}
	}()
	return obj, out
}

// stepsThenHang scripts a task of three steps: two lists (the second said
// with a secret, which the run's redactor knows), and an
// answer that the first replica to ask for it never gets (it hangs there
// until hang is closed, having told of it on hung). It counts the requests.
func stepsThenHang(t *testing.T, hang chan struct{}, hung chan<- struct{}, asked *atomic.Int32) *llmtest.Server {
	return llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		switch asked.Add(1) {
		case 1:
			return llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "c1", Name: "list_files", Arguments: `{"path":"."}`}}}
		case 2:
			return llmtest.Step{Content: "Looking again for " + clustertest.Secret, ToolCalls: []llm.ToolCall{{ID: "c2", Name: "list_files", Arguments: `{"path":"./"}`}}}
		case 3:
			hung <- struct{}{}
			return llmtest.Step{Content: wecomtest.Answer(req), Wait: hang}
		}
		return llmtest.Step{Content: wecomtest.Answer(req)}
	})
}

// TestRuns_TakenOverTaskResumesFromItsLastCheckpoint: a replica runs two
// steps of a task (each checkpoint copied to JetStream) and dies while the
// model works on the third; the replica that takes the task over after the
// ack wait resumes the run from the copy — run.resumed at iteration 2, the
// model asked only the third step, with the first two steps' results — and
// the user gets one answer. The copy is deleted once the task is answered.
func TestRuns_TakenOverTaskResumesFromItsLastCheckpoint(t *testing.T) {
	wecom := wecomtest.NewServer(t, clustertest.CorpID, clustertest.Secret, 0)
	hang, hung := make(chan struct{}), make(chan struct{}, 1)
	var asked atomic.Int32
	model := stepsThenHang(t, hang, hung, &asked)
	url, rs := startReplicas(t, 1, wecom, 0, model, 2*time.Second)
	dying := rs[0]
	obj, copies := runCopies(t, url)
	if status, _, err := dying.CB.Text("carol", "msg-7", "u2-m0 please"); err != nil || status != 200 {
		t.Fatalf("status %d, %v", status, err)
	}
	<-hung
	var run string
	for c := range copies {
		all := string(c.Log) + string(c.State) + string(bytes.Join(c.Turns, nil))
		if !c.Running || c.Iteration == 0 || strings.Contains(all, clustertest.ModelKey) || strings.Contains(all, clustertest.Secret) {
			t.Fatalf("copy at iteration %d: running %v, or no step done, or it holds a secret", c.Iteration, c.Running)
		}
		if c.Iteration == 2 {
			run = c.RunID
			break
		}
	}
	other := clustertest.StartReplica(t, clustertest.ReplicaOptions{
		Name: "replica-1", NATSURL: url, Model: model.URL, Bot: clustertest.BotConfig(wecom), AckWait: 2 * time.Second,
	})
	release := sync.OnceFunc(func() { close(hang) })
	t.Cleanup(release) // before the replicas shut down, should the test fail
	dying.Die()
	waitAnswer(t, wecom, "carol")
	events, err := other.Runs.Events(run)
	if err != nil {
		t.Fatal(err)
	}
	release() // the dead replica's run ends; its answer must not go out
	dying.Close()
	other.Close()

	if got := answers(wecom, "carol"); len(got) != 1 || got[0] != "done: u2-m0" {
		t.Fatalf("carol was sent %q, want one answer", wecom.Messages("carol"))
	}
	if n := asked.Load(); n != 4 {
		t.Errorf("the model was asked %d times, want 4: two steps, the one the dead replica waited on, and that one again", n)
	}
	reqs := model.Requests()
	var results int
	for _, m := range reqs[len(reqs)-1].Messages {
		if m.Role == llm.RoleTool {
			results++
		}
	}
	if results != 2 {
		t.Errorf("the step after the takeover was asked with %d tool results, want the first two steps'", results)
	}
	var resumed []event.RunResumedData
	for _, e := range events {
		if e.Type == event.RunResumed {
			d, _ := event.Decode[event.RunResumedData](e)
			resumed = append(resumed, d)
		}
	}
	if len(resumed) != 1 || !resumed[0].FromCheckpoint || resumed[0].Iteration != 2 {
		t.Errorf("the taking replica's log of run %s has run.resumed %+v, want one, from the checkpoint of iteration 2", run, resumed)
	}
	if last := events[len(events)-1]; last.Type != event.RunFinished {
		t.Errorf("the run's log ends with %s", last.Type)
	}
	if !strings.Contains(other.Logs(), "task taken over") {
		t.Errorf("the taking replica's log does not say it took the run over:\n%s", other.Logs())
	}
	if list, err := obj.List(t.Context()); err == nil || len(list) != 0 {
		t.Errorf("%d copies left once the task was answered (%v), want none", len(list), err)
	}
}

// TestRuns_TaskWithoutACopyStartsAfresh: the copy of a task's run is
// gone (here deleted; a replica that dies in the run's first step leaves
// none) when its replica dies; the replica taking the task over starts it
// afresh, and the user gets one answer.
func TestRuns_TaskWithoutACopyStartsAfresh(t *testing.T) {
	wecom := wecomtest.NewServer(t, clustertest.CorpID, clustertest.Secret, 0)
	hang, hung := make(chan struct{}), make(chan struct{}, 1)
	var asked atomic.Int32
	model := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		switch asked.Add(1) {
		case 1:
			return llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "c1", Name: "list_files", Arguments: `{"path":"."}`}}}
		case 2:
			hung <- struct{}{}
			return llmtest.Step{Content: wecomtest.Answer(req), Wait: hang}
		}
		return llmtest.Step{Content: wecomtest.Answer(req)}
	})
	url, rs := startReplicas(t, 1, wecom, 0, model, 2*time.Second)
	dying := rs[0]
	obj, copies := runCopies(t, url)
	if status, _, err := dying.CB.Text("dave", "msg-8", "u3-m0 please"); err != nil || status != 200 {
		t.Fatalf("status %d, %v", status, err)
	}
	<-hung
	c := <-copies // of the first step
	dying.Die()
	list, err := obj.List(t.Context())
	if err != nil || len(list) != 1 {
		t.Fatalf("%d copies (%v), want the run's one", len(list), err)
	}
	if err := obj.Delete(t.Context(), list[0].Name); err != nil {
		t.Fatal(err)
	}
	other := clustertest.StartReplica(t, clustertest.ReplicaOptions{
		Name: "replica-1", NATSURL: url, Model: model.URL, Bot: clustertest.BotConfig(wecom), AckWait: 2 * time.Second,
	})
	release := sync.OnceFunc(func() { close(hang) })
	t.Cleanup(release)
	waitAnswer(t, wecom, "dave")
	if strings.Contains(other.Logs(), "task taken over") {
		t.Errorf("a task with no copy was taken over from one:\n%s", other.Logs())
	}
	runs, err := other.Runs.List()
	// The sample run ends every list.
	if err != nil || len(runs) != 2 || !runs[1].Sample || runs[0].RunID == c.RunID {
		t.Fatalf("the taking replica has runs %+v (%v), want one of its own", runs, err)
	}
	events, err := other.Runs.Events(runs[0].RunID)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range events {
		if e.Type == event.RunResumed {
			t.Fatalf("the run started afresh has a run.resumed")
		}
	}
	release()
	dying.Close()
	other.Close()
	if got := answers(wecom, "dave"); len(got) != 1 || got[0] != "done: u3-m0" {
		t.Fatalf("dave was sent %q, want one answer", wecom.Messages("dave"))
	}
	if n := asked.Load(); n != 3 {
		t.Errorf("the model was asked %d times, want 3: the first step, the one the dead replica waited on, and the task afresh in one step", n)
	}
}

// TestRuns_OneStepTaskIsNotCopied: a task whose first step is its answer
// costs JetStream no copy: none is made before a step is done, nor once
// the model has answered.
func TestRuns_OneStepTaskIsNotCopied(t *testing.T) {
	wecom := wecomtest.NewServer(t, clustertest.CorpID, clustertest.Secret, 0)
	model := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		return llmtest.Step{Content: wecomtest.Answer(req)}
	})
	url, rs := startReplicas(t, 1, wecom, 0, model, 0)
	obj, _ := runCopies(t, url)
	if status, _, err := rs[0].CB.Text("fay", "msg-3", "u5-m0 please"); err != nil || status != 200 {
		t.Fatalf("status %d, %v", status, err)
	}
	waitAnswer(t, wecom, "fay")
	rs[0].Close() // its copying is over
	st, err := obj.Status(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if st.Size() != 0 {
		t.Errorf("the copies' bucket holds %d bytes after a one-step task, want none written", st.Size())
	}
}

// TestRuns_CopyThatCannotBeTakenUpIsDropped: a task's copy this replica
// cannot take up (here unreadable) leaves the task to start afresh, and is
// dropped, so no later takeover goes back to it.
func TestRuns_CopyThatCannotBeTakenUpIsDropped(t *testing.T) {
	wecom := wecomtest.NewServer(t, clustertest.CorpID, clustertest.Secret, 0)
	model := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		return llmtest.Step{Content: wecomtest.Answer(req)}
	})
	url, rs := startReplicas(t, 1, wecom, 0, model, 0)
	obj, _ := runCopies(t, url)
	if err := rs[0].Cluster.Runs().Save("wecom/msg-4", []byte("not a run")); err != nil {
		t.Fatal(err)
	}
	if status, _, err := rs[0].CB.Text("gus", "msg-4", "u6-m0 please"); err != nil || status != 200 {
		t.Fatalf("status %d, %v", status, err)
	}
	waitAnswer(t, wecom, "gus")
	rs[0].Close()
	if got := answers(wecom, "gus"); len(got) != 1 || got[0] != "done: u6-m0" {
		t.Fatalf("gus was sent %q, want one answer", wecom.Messages("gus"))
	}
	if !strings.Contains(rs[0].Logs(), "unreadable; it starts afresh") {
		t.Errorf("the replica's log does not say the copy was unreadable:\n%s", rs[0].Logs())
	}
	if list, err := obj.List(t.Context()); err == nil || len(list) != 0 {
		t.Errorf("%d copies left (%v), want the unreadable one dropped", len(list), err)
	}
}
