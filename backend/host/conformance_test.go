package host_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/agent"
	"hermes/backend/agent/agenttest"
	"hermes/backend/event"
	"hermes/backend/host"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/remote"
	"hermes/backend/runapi"
	"hermes/backend/runner"
)

// The conformance suite: every scenario runs against the runapi.Runs of a
// process that owns the home (its Manager) and of one attached to the owner
// (a remote.Client over the owner's local API), and must behave the same.
var implementations = []struct {
	name string
	open func(t *testing.T, home string) runapi.Runs
}{
	{"manager", func(t *testing.T, home string) runapi.Runs {
		runs := open(t, home, host.Serve, host.Options{}).Runs()
		if _, ok := runs.(*runner.Manager); !ok {
			t.Fatalf("the owner's Runs is a %T", runs)
		}
		return runs
	}},
	{"client", func(t *testing.T, home string) runapi.Runs {
		open(t, home, host.Serve, host.Options{})
		runs := open(t, home, host.Desktop, host.Options{}).Runs()
		if _, ok := runs.(*remote.Client); !ok {
			t.Fatalf("the attached Runs is a %T", runs)
		}
		return runs
	}},
}

func TestRuns_Conformance(t *testing.T) {
	scenarios := []struct {
		name string
		run  func(t *testing.T, open func(t *testing.T, home string) runapi.Runs)
	}{
		{"start and stream", startAndStream},
		{"approve", approve},
		{"answer a question", answerQuestion},
		{"pause and inject", pauseAndInject},
		{"stop at a safe point, then resume", stopThenResume},
		{"fork", fork},
		{"list by label", listByLabel},
	}
	for _, s := range scenarios {
		for _, impl := range implementations {
			t.Run(s.name+"/"+impl.name, func(t *testing.T) { s.run(t, impl.open) })
		}
	}
}

// stream reads a run's events from a watcher, one at a time.
type stream struct {
	w    *runapi.Watcher
	buf  []event.Event
	more <-chan struct{}
	done bool
}

func watch(t *testing.T, runs runapi.Runs, id string) *stream {
	t.Helper()
	w, err := runs.Watch(id, 0)
	if err != nil {
		t.Fatal(err)
	}
	return &stream{w: w}
}

// next returns the next event; false once the run's leg is over.
func (s *stream) next() (event.Event, bool) {
	for len(s.buf) == 0 {
		if s.done {
			return event.Event{}, false
		}
		if s.more != nil {
			<-s.more
		}
		s.buf, s.more = s.w.Next()
		s.done = s.more == nil
	}
	e := s.buf[0]
	s.buf = s.buf[1:]
	return e, true
}

// until returns the first event of type typ; it fails the test when the
// leg ends first.
func (s *stream) until(t *testing.T, typ event.Type) event.Event {
	t.Helper()
	for {
		e, ok := s.next()
		if !ok {
			t.Fatalf("the leg ended before %s", typ)
		}
		if e.Type == typ {
			return e
		}
	}
}

// rest returns the events left until the leg is over.
func (s *stream) rest() []event.Event {
	var out []event.Event
	for e, ok := s.next(); ok; e, ok = s.next() {
		out = append(out, e)
	}
	return out
}

// finished is how a leg that ended with events ended.
func finished(t *testing.T, events []event.Event) event.RunFinishedData {
	t.Helper()
	if len(events) == 0 || events[len(events)-1].Type != event.RunFinished {
		t.Fatalf("the leg did not end with run.finished: %d events", len(events))
	}
	d, err := event.Decode[event.RunFinishedData](events[len(events)-1])
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func start(t *testing.T, runs runapi.Runs, task string) string {
	t.Helper()
	id, err := runs.Start(t.Context(), runner.StartRequest{Task: task})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func listFiles(id string) llm.ToolCall {
	return llm.ToolCall{ID: id, Name: "list_files", Arguments: `{}`}
}

func startAndStream(t *testing.T, open func(*testing.T, string) runapi.Runs) {
	home, _ := newHome(t, llmtest.NewServer(t,
		llmtest.Step{Content: "Looking.", ToolCalls: []llm.ToolCall{listFiles("c1")}},
		llmtest.Step{Content: "Done."},
	))
	runs := open(t, home)
	id := start(t, runs, "look around")
	events := watch(t, runs, id).rest()
	if events[0].Type != event.RunStarted {
		t.Fatalf("first event %s", events[0].Type)
	}
	for i, e := range events {
		if e.Seq != int64(i+1) || e.RunID != id {
			t.Fatalf("event %d: seq %d of %s", i, e.Seq, e.RunID)
		}
	}
	if d := finished(t, events); d.Status != event.StatusFinished || d.Answer != "Done." {
		t.Fatalf("finished %+v", d)
	}
	logged, err := runs.Events(id)
	if err != nil || len(logged) != len(events) {
		t.Fatalf("Events: %d events, %v; streamed %d", len(logged), err, len(events))
	}
	// The run, then the sample run that ends every list.
	list, err := runs.List()
	if err != nil || len(list) != 2 || !list[1].Sample || list[0].RunID != id || list[0].Live || list[0].Status != event.StatusFinished {
		t.Fatalf("List: %+v, %v", list, err)
	}
}

func approve(t *testing.T, open func(*testing.T, string) runapi.Runs) {
	home, ws := newHome(t, llmtest.NewServer(t,
		llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "w1", Name: "write_file", Arguments: `{"path":"a.txt","content":"x"}`}}},
		llmtest.Step{Content: "Wrote it."},
	))
	runs := open(t, home)
	id := start(t, runs, "write a file")
	s := watch(t, runs, id)
	req, err := event.Decode[event.ApprovalRequestedData](s.until(t, event.ApprovalRequested))
	if err != nil {
		t.Fatal(err)
	}
	if err := runs.Approve(id, req.ApprovalID, runner.Answer{Decision: event.ApproveOnce}); err != nil {
		t.Fatal(err)
	}
	// The first answer wins; a later one is refused.
	if err := runs.Approve(id, req.ApprovalID, runner.Answer{Decision: event.ApproveDeny}); err == nil {
		t.Error("a second answer was taken")
	}
	resolved, err := event.Decode[event.ApprovalResolvedData](s.until(t, event.ApprovalResolved))
	if err != nil || resolved.Decision != event.ApproveOnce {
		t.Fatalf("resolved %+v, %v", resolved, err)
	}
	if d := finished(t, s.rest()); d.Status != event.StatusFinished {
		t.Fatalf("finished %+v", d)
	}
	if _, err := os.Stat(filepath.Join(ws, "a.txt")); err != nil {
		t.Fatal("the approved call did not run")
	}
}

func answerQuestion(t *testing.T, open func(*testing.T, string) runapi.Runs) {
	srv := agenttest.GuessingModel(t)
	home, ws := newPlanHome(t, srv)
	if err := os.WriteFile(filepath.Join(ws, "june.md"), []byte("We agreed on the budget."), 0o600); err != nil {
		t.Fatal(err)
	}
	runs := open(t, home)
	id := start(t, runs, "Summarise the meeting notes")
	s := watch(t, runs, id)
	q, err := event.Decode[event.QuestionAskedData](s.until(t, event.QuestionAsked))
	if err != nil {
		t.Fatal(err)
	}
	if err := runs.Control(id, agent.Control{Kind: agent.ControlAnswer, QuestionID: q.QuestionID, Text: "june.md"}); err != nil {
		t.Fatal(err)
	}
	a, err := event.Decode[event.QuestionAnsweredData](s.until(t, event.QuestionAnswered))
	if err != nil || a.By != "user" || a.Answer != "june.md" {
		t.Fatalf("answered %+v, %v", a, err)
	}
	if d := finished(t, s.rest()); d.Status != event.StatusFinished {
		t.Fatalf("finished %+v", d)
	}
}

func pauseAndInject(t *testing.T, open func(*testing.T, string) runapi.Runs) {
	hold := make(chan struct{})
	srv := llmtest.NewServer(t,
		llmtest.Step{Content: "Looking.", ToolCalls: []llm.ToolCall{listFiles("c1")}, Wait: hold},
		llmtest.Step{Content: "Done."},
	)
	home, _ := newHome(t, srv)
	runs := open(t, home)
	id := start(t, runs, "look around")
	s := watch(t, runs, id)
	s.until(t, event.ContextBuilt)
	if err := runs.Control(id, agent.Control{Kind: agent.ControlPause}); err != nil {
		t.Fatal(err)
	}
	close(hold)
	s.until(t, event.RunPaused)
	if err := runs.Control(id, agent.Control{Kind: agent.ControlInject, Text: "Mention the budget."}); err != nil {
		t.Fatal(err)
	}
	if err := runs.Control(id, agent.Control{Kind: agent.ControlResume}); err != nil {
		t.Fatal(err)
	}
	s.until(t, event.InstructionInjected)
	if d := finished(t, s.rest()); d.Status != event.StatusFinished {
		t.Fatalf("finished %+v", d)
	}
	reqs := srv.Requests()
	if !strings.Contains(fmt.Sprint(reqs[len(reqs)-1].Messages), "Mention the budget.") {
		t.Error("the model was not told the injected instruction")
	}
}

func stopThenResume(t *testing.T, open func(*testing.T, string) runapi.Runs) {
	hold := make(chan struct{})
	home, _ := newHome(t, llmtest.NewServer(t,
		llmtest.Step{Content: "Looking.", ToolCalls: []llm.ToolCall{listFiles("c1")}, Wait: hold},
		llmtest.Step{Content: "Looking again.", ToolCalls: []llm.ToolCall{listFiles("c2")}},
		llmtest.Step{Content: "Done."},
	))
	runs := open(t, home)
	id := start(t, runs, "look around")
	s := watch(t, runs, id)
	s.until(t, event.ContextBuilt)
	if err := runs.Control(id, agent.Control{Kind: agent.ControlStop}); err != nil {
		t.Fatal(err)
	}
	close(hold)
	if d := finished(t, s.rest()); d.Status != event.StatusStopped {
		t.Fatalf("stopped %+v", d)
	}
	if err := runs.Resume(t.Context(), id, runner.Overrides{}); err != nil {
		t.Fatal(err)
	}
	events := watch(t, runs, id).rest()
	if d := finished(t, events); d.Status != event.StatusFinished || d.Answer != "Done." {
		t.Fatalf("resumed run finished %+v", d)
	}
	resumed := 0
	for i, e := range events {
		if e.Seq != int64(i+1) {
			t.Fatalf("event %d has seq %d", i, e.Seq)
		}
		if e.Type == event.RunResumed {
			resumed++
		}
	}
	if resumed != 1 {
		t.Fatalf("%d run.resumed events", resumed)
	}
}

func fork(t *testing.T, open func(*testing.T, string) runapi.Runs) {
	home, _ := newHome(t, llmtest.NewServer(t,
		llmtest.Step{Content: "Looking.", ToolCalls: []llm.ToolCall{listFiles("c1")}},
		llmtest.Step{Content: "Done."},
		llmtest.Step{Content: "Done differently."},
	))
	runs := open(t, home)
	id := start(t, runs, "look around")
	finished(t, watch(t, runs, id).rest())
	forked, err := runs.Fork(t.Context(), id, runner.ForkRequest{Iteration: 2, Task: "look around again"})
	if err != nil {
		t.Fatal(err)
	}
	events := watch(t, runs, forked).rest()
	started, err := event.Decode[event.RunStartedData](events[0])
	if err != nil || started.ForkedFrom == nil || started.ForkedFrom.RunID != id || started.ForkedFrom.Iteration != 2 {
		t.Fatalf("run.started %+v, %v", started, err)
	}
	if d := finished(t, events); d.Status != event.StatusFinished || d.Answer != "Done differently." {
		t.Fatalf("fork finished %+v", d)
	}
}

// newPlanHome is newHome under the plan strategy, whose stages check the
// values a call names and ask when one was guessed.
func newPlanHome(t *testing.T, srv *llmtest.Server) (home, ws string) {
	t.Helper()
	home, ws = t.TempDir(), t.TempDir()
	toml := fmt.Sprintf("[model]\nbase_url = %q\nmodel = \"test-model\"\nmax_retries = 0\n\n[agent]\nworkspace = %q\nmax_iterations = 6\n", srv.URL, ws)
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	return home, ws
}
