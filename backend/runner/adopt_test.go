package runner_test

import (
	"errors"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"hermes/backend/agent"
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runner"
	"hermes/backend/store"
	"hermes/backend/toolbox"
)

// heldHome is a home whose database the test holds, as the bot does, and
// the setup of its runs against srv.
func heldHome(t *testing.T, srv *llmtest.Server) (*runner.Manager, *store.Store, agent.Setup) {
	t.Helper()
	home := t.TempDir()
	st, err := store.Open(filepath.Join(home, "hermes.db"))
	if err != nil {
		t.Fatal(err)
	}
	tools := toolbox.NewRegistry()
	for _, tool := range toolbox.FileTools(nil) {
		if err := tools.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
	m := runner.New(runner.Options{Home: home, Store: st})
	t.Cleanup(func() {
		m.Shutdown(t.Context())
		st.Close()
	})
	return m, st, agent.Setup{
		Home: home, Tools: tools, ModelName: "m", BaseURL: srv.URL,
		Model: llm.New(llm.Config{BaseURL: srv.URL, APIKey: "sk-test-key-0123456789", Model: "m", Stream: true}),
	}
}

// TestManager_AdoptedCopyResumesInAnotherHome: a run's copy taken at its
// second checkpoint, while its third model call hangs in its first home,
// is adopted by a second home and resumed there: run.resumed says it goes
// on from iteration 2, the model is asked only the third step (with the
// first two steps' results), and the log in the second home holds the
// first two iterations once, numbered on without a gap.
func TestManager_AdoptedCopyResumesInAnotherHome(t *testing.T) {
	hang := make(chan struct{})
	defer close(hang)
	var asked atomic.Int32
	srv := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		switch asked.Add(1) {
		case 1:
			return llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "c1", Name: "list_files", Arguments: `{"path":"."}`}}}
		case 2:
			return llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "c2", Name: "write_file", Arguments: `{"path":"notes.txt","content":"x"}`}}}
		case 3:
			return llmtest.Step{Content: "never given", Wait: hang}
		}
		return llmtest.Step{Content: "Resumed and done."}
	})
	first, st, setup := heldHome(t, srv)
	told := make(chan string, 16)
	st.OnCheckpoint(func(id string) { told <- id })
	id, err := first.StartSetup(setup, agent.Task{Text: "make notes", Workspace: t.TempDir()}, runner.Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := first.CopyRun("no-such-run"); !errors.Is(err, store.ErrNoCheckpoint) {
		t.Fatalf("CopyRun of a run without a checkpoint: %v, want ErrNoCheckpoint", err)
	}
	var c runner.RunCopy
	for c.Iteration < 2 {
		if got := <-told; got != id {
			t.Fatalf("told of run %s", got)
		}
		if c, err = first.CopyRun(id); err != nil {
			t.Fatal(err)
		}
	}
	if !c.Running || len(c.Turns) == 0 || !strings.HasSuffix(string(c.Log), "\n") {
		t.Fatalf("the copy: running %v, %d turns, log ends %q", c.Running, len(c.Turns), c.Log[max(0, len(c.Log)-20):])
	}

	second, _, setup2 := heldHome(t, srv)
	ws := t.TempDir()
	if err := second.Adopt(runner.RunCopy{RunID: "../x", State: c.State}, ws); err == nil {
		t.Fatal("a copy whose id is a path was adopted")
	}
	if err := second.Adopt(c, ws); err != nil {
		t.Fatal(err)
	}
	done := make(chan agent.Result, 1)
	if err := second.ResumeSetup(setup2, id, runner.Hooks{Done: func(r agent.Result) { done <- r }}); err != nil {
		t.Fatal(err)
	}
	res := <-done
	if res.Status != event.StatusFinished || res.Answer != "Resumed and done." {
		t.Fatalf("the resumed run ended %s: %q %s", res.Status, res.Answer, res.Error)
	}
	if n := asked.Load(); n != 4 {
		t.Errorf("the model was asked %d times, want 4 (two steps, the hung one, the resumed one)", n)
	}
	last := srv.Requests()[len(srv.Requests())-1]
	var results int
	for _, msg := range last.Messages {
		if msg.Role == llm.RoleTool {
			results++
		}
	}
	if results != 2 {
		t.Errorf("the resumed step was asked with %d tool results, want the first two steps' 2", results)
	}
	events, err := second.Events(id)
	if err != nil {
		t.Fatal(err)
	}
	var started, resumed int
	for i, e := range events {
		if e.Seq != int64(i+1) {
			t.Fatalf("event %d is #%d (%s): numbering has a gap or a repeat", i, e.Seq, e.Type)
		}
		switch e.Type {
		case event.RunStarted:
			started++
		case event.RunResumed:
			resumed++
			d, err := event.Decode[event.RunResumedData](e)
			if err != nil || !d.FromCheckpoint || d.Iteration != 2 {
				t.Errorf("run.resumed: %+v (%v), want from checkpoint at iteration 2", d, err)
			}
		}
	}
	if started != 1 || resumed != 1 {
		t.Errorf("the second home's log has %d run.started and %d run.resumed, want one each", started, resumed)
	}
}
