package agent_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"hermes/backend/agent"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
)

// Stages of the requests a plan run makes, told apart by their system prompt.
const (
	stageRoute      = "route"
	stagePlan       = "plan"
	stageEvaluate   = "evaluate"
	stageConfidence = "confidence"
	stageTurn       = "turn"
)

func stageOf(msgs []llm.Message) string {
	if len(msgs) == 0 {
		return stageTurn
	}
	sys := msgs[0].Content
	switch {
	case strings.HasPrefix(sys, "You route messages"):
		return stageRoute
	case strings.HasPrefix(sys, "You are the planner"):
		return stagePlan
	case strings.HasPrefix(sys, "You check one step"):
		return stageEvaluate
	case strings.HasPrefix(sys, "You rate how sure"):
		return stageConfidence
	}
	return stageTurn
}

// staged is a scripted model that answers each stage's requests with its
// own function, given the request and how many of that stage came before.
// A stage without a function fails the test.
type staged struct {
	t    *testing.T
	mu   sync.Mutex
	seen map[string]int
	json map[string]func(req llmtest.Request, n int) string
	turn func(req llmtest.Request, n int) llmtest.Step
}

func newStaged(t *testing.T, turn func(req llmtest.Request, n int) llmtest.Step) *staged {
	return &staged{t: t, seen: map[string]int{}, json: map[string]func(llmtest.Request, int) string{}, turn: turn}
}

// on answers a stage's requests with JSON.
func (s *staged) on(stage string, f func(req llmtest.Request, n int) string) *staged {
	s.json[stage] = f
	return s
}

func (s *staged) answer(req llmtest.Request) llmtest.Step {
	stage := stageOf(req.Messages)
	s.mu.Lock()
	n := s.seen[stage]
	s.seen[stage]++
	s.mu.Unlock()
	if stage == stageTurn {
		return s.turn(req, n)
	}
	if stage == stageConfidence && strings.Contains(req.Messages[1].Content, "Calls and results:") {
		return llmtest.Step{Content: s.checkAndRate(req, n)}
	}
	f, ok := s.json[stage]
	if !ok {
		s.t.Errorf("unexpected %s request", stage)
		return llmtest.Step{Content: "{}"}
	}
	return llmtest.Step{Content: f(req, n)}
}

// checkAndRate answers the completion check that also checks the step the
// answer followed, as a model does: the evaluate function's verdict with the
// confidence function's rating (its reason as confidence_reason). The
// request counts under both stages.
func (s *staged) checkAndRate(req llmtest.Request, n int) string {
	s.mu.Lock()
	e := s.seen[stageEvaluate]
	s.seen[stageEvaluate]++
	s.mu.Unlock()
	eval, rate := s.json[stageEvaluate], s.json[stageConfidence]
	if eval == nil || rate == nil {
		s.t.Errorf("unexpected completion check with a step's check")
		return "{}"
	}
	out := map[string]any{}
	var rating map[string]any
	_ = json.Unmarshal([]byte(eval(req, e)), &out)
	_ = json.Unmarshal([]byte(rate(req, n)), &rating)
	out["confidence"], out["confidence_reason"] = rating["confidence"], rating["reason"]
	b, _ := json.Marshal(out)
	return string(b)
}

func (s *staged) count(stage string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seen[stage]
}

// planHarness is a harness whose model is s, under the plan strategy.
func planHarness(t *testing.T, s *staged) *harness {
	t.Helper()
	h := newHarness(t, llmtest.NewFuncServer(t, s.answer))
	h.setup.Strategy = agent.StrategyPlan
	return h
}

// metaCall is a call with the plan strategy's _meta in its arguments.
func metaCall(id, name string, args map[string]any, step int, status, serves string, provenance map[string]string) llm.ToolCall {
	a := map[string]any{"_meta": map[string]any{"step": step, "step_status": status, "serves_goal": serves, "provenance": provenance}}
	for k, v := range args {
		a[k] = v
	}
	b, _ := json.Marshal(a)
	return llm.ToolCall{ID: id, Name: name, Arguments: string(b)}
}

// checked adds to a call's _meta the verdict on the step the previous
// decision finished, as the plan asks of the next call.
func checked(tc llm.ToolCall, passed bool, reason string) llm.ToolCall {
	var a map[string]any
	_ = json.Unmarshal([]byte(tc.Arguments), &a)
	a["_meta"].(map[string]any)["check"] = map[string]any{"passed": passed, "reason": reason, "contradicts_plan": false}
	b, _ := json.Marshal(a)
	tc.Arguments = string(b)
	return tc
}

// plan2 is a plan of two steps: read a file, then write one.
const plan2 = `{"assumptions": ["notes.txt exists"], "steps": [
 {"description": "Read notes.txt", "tools": ["read_file"], "acceptance": "its content is shown"},
 {"description": "Write the first line in upper case to out.txt", "tools": ["write_file"], "acceptance": "out.txt holds BUY MILK"}]}`

func verdict(passed bool, reason string) string {
	b, _ := json.Marshal(map[string]any{"passed": passed, "reason": reason})
	return string(b)
}

func confident(c float64) func(llmtest.Request, int) string {
	return func(llmtest.Request, int) string {
		b, _ := json.Marshal(map[string]any{"confidence": c, "reason": "the file was checked"})
		return string(b)
	}
}

func always(s string) func(llmtest.Request, int) string {
	return func(llmtest.Request, int) string { return s }
}

// temps records the temperature of each stage's requests on the way to
// the real client.
type temps struct {
	agent.Model
	mu  sync.Mutex
	got map[string][]float32
}

func (m *temps) Chat(ctx context.Context, req llm.Request) (llm.Response, error) {
	if req.Temperature != nil {
		m.mu.Lock()
		if m.got == nil {
			m.got = map[string][]float32{}
		}
		stage := stageOf(req.Messages)
		m.got[stage] = append(m.got[stage], *req.Temperature)
		m.mu.Unlock()
	}
	return m.Model.Chat(ctx, req)
}

func last(msgs []llm.Message) llm.Message { return msgs[len(msgs)-1] }
