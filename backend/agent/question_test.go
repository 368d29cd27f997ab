package agent_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"hermes/backend/agent"
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
)

// guessingModel guesses the path of the meeting notes, then reads the
// path it was told, then answers.
func guessingModel(t *testing.T) *staged {
	return newStaged(t, func(req llmtest.Request, n int) llmtest.Step {
		for _, m := range req.Messages {
			if m.Role == llm.RoleUser && strings.Contains(m.Content, "The user says: notes/june.md") {
				if strings.Contains(req.Messages[1].Content, "1. [passed]") {
					return llmtest.Step{Content: "The meeting agreed on the budget."}
				}
				return llmtest.Step{ToolCalls: []llm.ToolCall{metaCall("c2", "read_file", map[string]any{"path": "notes/june.md"}, 1, "finished", "read the meeting notes", map[string]string{"path": "user"})}}
			}
		}
		return llmtest.Step{ToolCalls: []llm.ToolCall{metaCall("c1", "read_file", map[string]any{"path": "meeting.md"}, 1, "finished", "read the meeting notes", map[string]string{"path": "inferred"})}}
	}).on(stagePlan, always(`{"steps": [{"description": "Read the meeting notes", "tools": ["read_file"], "acceptance": "the notes are shown"}]}`)).
		on(stageEvaluate, always(verdict(true, "shown"))).on(stageConfidence, confident(0.9))
}

// answer answers every question the run asks with ctl, filled in with the
// question's id.
func answerQuestions(h *harness, run *agent.Run, ctl agent.Control) {
	sub := h.setup.Bus.Subscribe(64, func(e event.Event) bool { return e.Type == event.QuestionAsked })
	go func() {
		for e := range sub.C {
			q, _ := event.Decode[event.QuestionAskedData](e)
			c := ctl
			if c.Kind == agent.ControlAnswer {
				c.QuestionID = q.QuestionID
			}
			run.Controls().Send(c)
		}
	}()
	h.t.Cleanup(func() { h.setup.Bus.Unsubscribe(sub) })
}

func TestQuestion_AGuessThatFailedIsAskedNotGuessedAgain(t *testing.T) {
	for _, tc := range []struct {
		name string
		ctl  agent.Control
	}{
		{"answer", agent.Control{Kind: agent.ControlAnswer, Text: "notes/june.md"}},
		{"an injected instruction answers too", agent.Control{Kind: agent.ControlInject, Text: "notes/june.md"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := planHarness(t, guessingModel(t))
			if err := os.Mkdir(filepath.Join(h.ws, "notes"), 0o755); err != nil {
				t.Fatal(err)
			}
			h.write("notes/june.md", "We agreed on the budget.")
			run, err := agent.NewRun(h.setup, agent.Task{Text: "Summarise the June meeting", Workspace: h.ws})
			if err != nil {
				t.Fatal(err)
			}
			answerQuestions(h, run, tc.ctl)
			res, events := h.execute(run, t.Context())
			if res.Status != event.StatusFinished || res.Answer != "The meeting agreed on the budget." {
				t.Fatalf("result = %+v", res)
			}
			asked := ofType(events, event.QuestionAsked)
			if len(asked) != 1 {
				t.Fatalf("%d questions, want 1", len(asked))
			}
			q := decode[event.QuestionAskedData](t, asked[0])
			if q.Tool != "read_file" || q.Argument != "path" || q.Value != "meeting.md" || q.CallID != "c1" || q.Failure == "" || !strings.Contains(q.Question, "meeting.md") {
				t.Errorf("question.asked = %+v", q)
			}
			a := decode[event.QuestionAnsweredData](t, ofType(events, event.QuestionAnswered)[0])
			if a.By != "user" || a.Answer != "notes/june.md" || a.QuestionID != q.QuestionID {
				t.Errorf("question.answered = %+v", a)
			}
			// The step is checked once, after the answer led to a result.
			if checks := ofType(events, event.StepEvaluated); len(checks) != 1 || !reflect.DeepEqual(decode[event.StepEvaluatedData](t, checks[0]).Calls, []string{"c1", "c2"}) {
				t.Errorf("%d checks: %+v", len(checks), checks)
			}
			if n := len(ofType(events, event.InstructionInjected)); n != 0 {
				t.Errorf("the answer was also injected %d times", n)
			}
		})
	}
}

func TestQuestion_NoOneToAnswerTellsTheModelNotToGuess(t *testing.T) {
	h := planHarness(t, guessingModel(t))
	h.setup.Limits.MaxIterations = 2
	run, err := agent.NewRun(h.setup, agent.Task{Text: "Summarise the June meeting", Workspace: h.ws})
	if err != nil {
		t.Fatal(err)
	}
	answerQuestions(h, run, agent.Control{Kind: agent.ControlAnswer})
	_, events := h.execute(run, t.Context())
	a := decode[event.QuestionAnsweredData](t, ofType(events, event.QuestionAnswered)[0])
	if a.By != "no_one" {
		t.Errorf("question.answered = %+v", a)
	}
	if !contains(h.request(2), llm.RoleUser, "No one can tell you the right value now. Do not guess again") {
		t.Error("the model was not told that no one can answer")
	}
	// The same guess is asked about once.
	if n := len(ofType(events, event.QuestionAsked)); n != 1 {
		t.Errorf("%d questions, want 1", n)
	}
}

func TestQuestion_StopEndsTheWait(t *testing.T) {
	h := planHarness(t, guessingModel(t))
	run, err := agent.NewRun(h.setup, agent.Task{Text: "Summarise the June meeting", Workspace: h.ws})
	if err != nil {
		t.Fatal(err)
	}
	answerQuestions(h, run, agent.Control{Kind: agent.ControlStop})
	res, events := h.execute(run, t.Context())
	if res.Status != event.StatusStopped {
		t.Fatalf("result = %+v", res)
	}
	if a := decode[event.QuestionAnsweredData](t, ofType(events, event.QuestionAnswered)[0]); a.By != "stop" {
		t.Errorf("question.answered = %+v", a)
	}
}
