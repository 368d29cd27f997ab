package runner_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"hermes/backend/agent"
	"hermes/backend/config"
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runlog"
	"hermes/backend/runner"
)

const (
	keyA = "sk-configured-a-0123456789"
	keyB = "sk-endpoint-b-0123456789"
)

// twoEndpoints is a home whose configured model is "ma" at a, with bURL (an
// endpoint of server b) listed under [[model.endpoints]] with its own key.
func twoEndpoints(t *testing.T, a *llmtest.Server, bURL string) (*runner.Manager, string) {
	t.Helper()
	home := t.TempDir()
	toml := fmt.Sprintf(`agent = { strategy = "react", route = false }
[model]
base_url = %q
model = "ma"
api_key_env = "KEY_A"

[[model.endpoints]]
base_url = %q
api_key_env = "KEY_B"
`, a.URL, bURL)
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"KEY_A": keyA, "KEY_B": keyB}
	return runner.New(runner.Options{Home: home, Workspace: t.TempDir(), Getenv: func(k string) string { return env[k] }}), home
}

// held is a model that answers steps in turn and holds its first answer
// back until hold is closed; asked is closed when the first request comes.
type held struct {
	*llmtest.Server
	asked, hold chan struct{}
}

func newHeld(t *testing.T, steps ...llmtest.Step) held {
	h := held{asked: make(chan struct{}), hold: make(chan struct{})}
	var mu sync.Mutex
	n := 0
	h.Server = llmtest.NewFuncServer(t, func(llmtest.Request) llmtest.Step {
		mu.Lock()
		defer mu.Unlock()
		n++
		if n > len(steps) {
			t.Errorf("request %d is past the end of the script", n)
			return llmtest.Step{Status: 500}
		}
		if n == 1 {
			close(h.asked)
			steps[0].Wait = h.hold
		}
		return steps[n-1]
	})
	return h
}

// stopAtFirst starts or resumes a run with start, stops it once srv was
// asked its first answer, lets it answer and waits for the leg to end
// stopped, after that iteration.
func stopAtFirst(t *testing.T, m *runner.Manager, srv held, start func() string) string {
	t.Helper()
	id := start()
	<-srv.asked
	if err := m.Control(id, agent.Control{Kind: agent.ControlStop}); err != nil {
		t.Fatal(err)
	}
	close(srv.hold)
	events := waitEnd(t, m, id)
	if d, err := event.Decode[event.RunFinishedData](events[len(events)-1]); err != nil || d.Status != event.StatusStopped {
		t.Fatalf("the run ended %+v, %v", d, err)
	}
	return id
}

// lastResumed is the last run.resumed of events.
func lastResumed(t *testing.T, events []event.Event) event.RunResumedData {
	t.Helper()
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].Type == event.RunResumed {
			d, err := event.Decode[event.RunResumedData](events[i])
			if err != nil {
				t.Fatal(err)
			}
			return d
		}
	}
	t.Fatal("no run.resumed")
	return event.RunResumedData{}
}

// assertAsked fails unless every request srv got asked model with key.
func assertAsked(t *testing.T, where string, srv *llmtest.Server, n int, model, key string) {
	t.Helper()
	reqs := srv.Requests()
	if len(reqs) != n {
		t.Fatalf("%s got %d requests, want %d", where, len(reqs), n)
	}
	for i, r := range reqs {
		if r.Model != model || r.Header.Get("Authorization") != "Bearer "+key {
			t.Errorf("%s request %d asked %q with %q, want %q with %s's key", where, i, r.Model, r.Header.Get("Authorization"), model, where)
		}
	}
}

func listFiles(id string) []llm.ToolCall {
	return []llm.ToolCall{{ID: id, Name: "list_files", Arguments: `{"path":"."}`}}
}

// TestManager_ResumeKeepsTheRunsModel: a run started at another endpoint
// with another model than hermes.toml's goes on there when resumed, with
// that endpoint's key, and run.resumed names them without a switch.
func TestManager_ResumeKeepsTheRunsModel(t *testing.T) {
	a := llmtest.NewServer(t)
	b := newHeld(t, llmtest.Step{ToolCalls: listFiles("c1")}, llmtest.Step{Content: "Done."})
	m, _ := twoEndpoints(t, a, b.URL)
	id := stopAtFirst(t, m, b, func() string {
		id, err := m.Start(t.Context(), runner.StartRequest{Task: "look around", Model: "mb", BaseURL: b.URL})
		if err != nil {
			t.Fatal(err)
		}
		return id
	})
	if err := m.Resume(t.Context(), id, runner.Overrides{}); err != nil {
		t.Fatal(err)
	}
	events := waitEnd(t, m, id)
	if d, _ := event.Decode[event.RunFinishedData](events[len(events)-1]); d.Status != event.StatusFinished {
		t.Fatalf("the resumed run ended %+v", d)
	}
	assertAsked(t, "a", a, 0, "", "")
	assertAsked(t, "b", b.Server, 2, "mb", keyB)
	if d := lastResumed(t, events); d.Model != "mb" || d.BaseURL != b.URL || d.Switched() {
		t.Errorf("run.resumed = %+v", d)
	}
}

// TestManager_ResumeSwitchesWhenAsked: a resume that names another model
// and endpoint goes there with that endpoint's key, run.resumed records the
// switch, and a later resume keeps the model switched to.
func TestManager_ResumeSwitchesWhenAsked(t *testing.T) {
	b := newHeld(t, llmtest.Step{ToolCalls: listFiles("c1")})
	a := newHeld(t, llmtest.Step{ToolCalls: listFiles("c2")}, llmtest.Step{Content: "Done."})
	m, _ := twoEndpoints(t, a.Server, b.URL)
	id := stopAtFirst(t, m, b, func() string {
		id, err := m.Start(t.Context(), runner.StartRequest{Task: "look around", Model: "mb", BaseURL: b.URL})
		if err != nil {
			t.Fatal(err)
		}
		return id
	})
	stopAtFirst(t, m, a, func() string {
		if err := m.Resume(t.Context(), id, runner.Overrides{Model: "ma2", BaseURL: a.URL}); err != nil {
			t.Fatal(err)
		}
		return id
	})
	events := waitEnd(t, m, id)
	want := event.RunResumedData{FromCheckpoint: true, Iteration: 1, Model: "ma2", BaseURL: a.URL, FromModel: "mb", FromBaseURL: b.URL}
	if d := lastResumed(t, events); d != want {
		t.Errorf("run.resumed = %+v, want %+v", d, want)
	}

	if err := m.Resume(t.Context(), id, runner.Overrides{}); err != nil {
		t.Fatal(err)
	}
	events = waitEnd(t, m, id)
	if d := lastResumed(t, events); d.Model != "ma2" || d.BaseURL != a.URL || d.Switched() {
		t.Errorf("the second resume: run.resumed = %+v", d)
	}
	assertAsked(t, "b", b.Server, 1, "mb", keyB)
	assertAsked(t, "a", a.Server, 2, "ma2", keyA)
}

// TestManager_ForkKeepsTheRunsModel: a fork asks the run's model at the
// run's endpoint, or the ones it is given, which forked_from then records
// beside the run's.
func TestManager_ForkKeepsTheRunsModel(t *testing.T) {
	a := llmtest.NewServer(t, llmtest.Step{Content: "Forked at a."})
	b := llmtest.NewServer(t,
		llmtest.Step{ToolCalls: listFiles("c1")}, llmtest.Step{Content: "Done."}, llmtest.Step{Content: "Forked at b."},
	)
	m, _ := twoEndpoints(t, a, b.URL)
	src, err := m.Start(t.Context(), runner.StartRequest{Task: "look around", Model: "mb", BaseURL: b.URL})
	if err != nil {
		t.Fatal(err)
	}
	waitEnd(t, m, src)

	same, err := m.Fork(t.Context(), src, runner.ForkRequest{Iteration: 2})
	if err != nil {
		t.Fatal(err)
	}
	started := forkStarted(t, waitEnd(t, m, same))
	if started.Model != "mb" || started.BaseURL != b.URL || *started.ForkedFrom != (event.ForkRef{RunID: src, Iteration: 2}) {
		t.Errorf("the fork started %+v, forked from %+v", started, started.ForkedFrom)
	}
	assertAsked(t, "b", b, 3, "mb", keyB)

	other, err := m.Fork(t.Context(), src, runner.ForkRequest{Iteration: 2, Model: "ma2", BaseURL: a.URL})
	if err != nil {
		t.Fatal(err)
	}
	started = forkStarted(t, waitEnd(t, m, other))
	want := event.ForkRef{RunID: src, Iteration: 2, FromModel: "mb", FromBaseURL: b.URL}
	if started.Model != "ma2" || started.BaseURL != a.URL || *started.ForkedFrom != want {
		t.Errorf("the switched fork started %+v, forked from %+v", started, started.ForkedFrom)
	}
	assertAsked(t, "a", a, 1, "ma2", keyA)
}

func forkStarted(t *testing.T, events []event.Event) event.RunStartedData {
	t.Helper()
	d, err := event.Decode[event.RunStartedData](events[0])
	if err != nil || d.ForkedFrom == nil {
		t.Fatalf("the fork's first event is %s %s", events[0].Type, events[0].Data)
	}
	return d
}

// TestManager_ResumeAtAURLWithASecret: the log masks a base URL's password,
// and the resume finds the URL again in hermes.toml; one that hermes.toml
// does not name must be given again, since Hermes keeps the secret nowhere.
func TestManager_ResumeAtAURLWithASecret(t *testing.T) {
	const secret = "pw-in-the-url-4242"
	a := llmtest.NewServer(t)
	b := newHeld(t, llmtest.Step{ToolCalls: listFiles("c1")}, llmtest.Step{Content: "Done."})
	withSecret := strings.Replace(b.URL, "http://", "http://user:"+secret+"@", 1)
	m, home := twoEndpoints(t, a, withSecret)
	id := stopAtFirst(t, m, b, func() string {
		id, err := m.Start(t.Context(), runner.StartRequest{Task: "look around", Model: "mb", BaseURL: withSecret})
		if err != nil {
			t.Fatal(err)
		}
		return id
	})
	path, err := runlog.Find(home, id)
	if err != nil {
		t.Fatal(err)
	}
	if raw, _ := os.ReadFile(path); strings.Contains(string(raw), secret) || !strings.Contains(string(raw), "user:xxxxx@") {
		t.Fatalf("the log does not mask the URL's password:\n%s", raw)
	}

	// The same log, with hermes.toml no longer naming the endpoint.
	bare, noEnv := config.Model{BaseURL: a.URL, Model: "ma"}, func(string) string { return "" }
	if _, err := runner.ResumeOverrides(home, id, bare, noEnv, runner.Overrides{}); !errors.Is(err, runner.ErrEndpointSecret) {
		t.Errorf("a URL whose secret is kept nowhere: %v", err)
	}
	if o, err := runner.ResumeOverrides(home, id, bare, noEnv, runner.Overrides{BaseURL: withSecret}); err != nil || o.BaseURL != withSecret || o.Model != "mb" {
		t.Errorf("the URL given again: %+v, %v", o, err)
	}

	if err := m.Resume(t.Context(), id, runner.Overrides{}); err != nil {
		t.Fatal(err)
	}
	waitEnd(t, m, id)
	assertAsked(t, "b", b.Server, 2, "mb", keyB)
}
