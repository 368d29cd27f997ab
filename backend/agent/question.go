package agent

import (
	"context"
	"slices"

	"hermes/backend/event"
	"hermes/backend/i18n"
	"hermes/backend/llm"
)

// askAboutGuesses asks the person, for the first call of the turn that
// failed with a value the model said it inferred, what the value should
// be, instead of letting the model guess again. Each guess is asked about
// once. It reports whether it asked, and whether a stop (or a cancelled
// context) ended the wait.
func (r *Run) askAboutGuesses(ctx context.Context, calls []*call) (asked, stopped bool) {
	for _, c := range calls {
		if c.meta == nil || c.failure == "" || !c.valid() || c.skipped != "" || c.denied != "" {
			continue
		}
		for _, arg := range sortedKeys(c.meta.Provenance) {
			if c.meta.Provenance[arg] != event.FromInferred {
				continue
			}
			q := event.QuestionAskedData{
				QuestionID: "question_" + c.ID, CallID: c.ID, Tool: c.Name, Argument: arg,
				Value: argValue(c.prep.Args, arg), Failure: c.failure,
			}
			key := q.Tool + " " + q.Argument + "=" + q.Value
			if slices.Contains(r.st.Asked, key) {
				continue
			}
			r.st.Asked = append(r.st.Asked, key)
			q.Question = i18n.T("agent.question", q.Argument, q.Value, q.Tool, i18n.Clause(q.Failure))
			return true, r.pose(ctx, q)
		}
	}
	return false, false
}

// pose publishes one question and waits for its answer: a control of kind
// answer (for this question, or for none in particular), or an instruction
// injected meanwhile, which answers it too. An answer with no text means no
// one can answer. It reports true when a stop or a cancelled context ended
// the wait.
func (r *Run) pose(ctx context.Context, q event.QuestionAskedData) bool {
	r.publish(event.QuestionAsked, q)
	answers := func(c Control) bool {
		return c.Kind == ControlStop || c.Kind == ControlInject ||
			c.Kind == ControlAnswer && (c.QuestionID == "" || c.QuestionID == q.QuestionID)
	}
	for {
		for _, c := range r.controls.take(answers) {
			if c.Kind == ControlStop {
				r.publish(event.QuestionAnswered, event.QuestionAnsweredData{QuestionID: q.QuestionID, By: "stop"})
				return true
			}
			done := event.QuestionAnsweredData{QuestionID: q.QuestionID, Answer: c.Text, By: "user"}
			hint := answeredHint(q, c.Text)
			if c.Text == "" {
				done.By, hint = "no_one", noAnswerHint(q)
			}
			r.publish(event.QuestionAnswered, done)
			r.turns = append(r.turns, llm.Message{Role: llm.RoleUser, Content: hint})
			return false
		}
		select {
		case <-r.controls.arrived:
		case <-ctx.Done():
			r.publish(event.QuestionAnswered, event.QuestionAnsweredData{QuestionID: q.QuestionID, By: "stop"})
			return true
		}
	}
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
