package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"hermes/backend/event"
	"hermes/backend/i18n"
	"hermes/backend/llm"
)

// The evaluator sees the last evidenceCalls calls of a step, and at most
// evidenceLimit characters of each call's arguments and of its result.
const (
	evidenceCalls = 20
	evidenceLimit = 1500
)

// review follows a plan's turn after its calls ran: a guessed value that
// made a call fail is asked about instead of guessed again; otherwise a
// step the decision finished is checked.
func (r *Run) review(ctx context.Context, d decision, calls []*call) (outcome, bool) {
	asked, stopped := r.askAboutGuesses(ctx, calls)
	switch {
	case ctx.Err() != nil:
		return outcome{}, true
	case stopped:
		return outcome{status: event.StatusStopped, err: i18n.T("agent.stopped")}, true
	case !asked && d.status == stepFinished:
		r.evaluate(ctx, d)
	}
	return outcome{}, false
}

// evaluate checks a step's results (the calls since the last check)
// against its acceptance criteria. A failed check goes back to deciding
// with the reason; a result that contradicts the plan's assumptions
// replans the remaining steps.
func (r *Run) evaluate(ctx context.Context, d decision) {
	p := r.st.Plan
	s := p.step(d.step)
	if s == nil || s.Status == event.StepPassed {
		s = p.current()
	}
	if s == nil {
		return
	}
	r.stage = event.StageEvaluating
	evidence, ids := r.evidence(p.Since)
	var verdict struct {
		Passed          *bool  `json:"passed"`
		Reason          string `json:"reason"`
		ContradictsPlan bool   `json:"contradicts_plan"`
	}
	rep, err := r.stageCall(ctx, tempEvaluate, evaluatePrompt, evaluateMessage(r.st.Task, p, s, d.servesGoal, evidence),
		func(raw []byte, _ bool) string {
			if json.Unmarshal(raw, &verdict) != nil || verdict.Passed == nil {
				return `The object must be {"passed": true or false, "reason": "one line", "contradicts_plan": true or false}.`
			}
			return ""
		})
	if ctx.Err() != nil {
		return
	}
	data := event.StepEvaluatedData{Step: s.ID, Calls: ids, Usage: rep.usage, LatencyMS: rep.latencyMS()}
	if err != nil {
		// The model's own word is taken, unless its last call failed.
		data.Unchecked, data.Passed = true, r.st.Guards.LastFailure == ""
		data.Reason = i18n.T("agent.evaluate.unreadable", err.Error())
	} else {
		data.Passed, data.Reason = *verdict.Passed, verdict.Reason
		data.ContradictsPlan = verdict.ContradictsPlan && !data.Passed
	}
	s.Reason = data.Reason
	p.Since = len(r.turns)
	if data.Passed {
		s.Status = event.StepPassed
		if cur := p.current(); cur != nil {
			data.NextStep = cur.ID
		}
		r.publish(event.StepEvaluated, data)
		return
	}
	s.Status = event.StepFailed
	data.NextStep = s.ID
	r.publish(event.StepEvaluated, data)
	if data.ContradictsPlan && r.replan(ctx, data.Reason, evidence) {
		r.turns = append(r.turns, llm.Message{Role: llm.RoleUser, Content: replannedHint(p, data.Reason)})
		return
	}
	r.turns = append(r.turns, llm.Message{Role: llm.RoleUser, Content: stepFailedHint(s, data.Reason)})
}

// evidence lists the calls and results of the turns since since (the
// last evidenceCalls of them), for a check, with the ids of the calls.
func (r *Run) evidence(since int) (string, []string) {
	var calls []llm.ToolCall // the calls that got a result, in order
	asked := map[string]llm.ToolCall{}
	results := map[string]string{}
	for _, m := range r.turns[min(since, len(r.turns)):] {
		switch m.Role {
		case llm.RoleAssistant:
			for _, tc := range m.ToolCalls {
				asked[tc.ID] = tc
			}
		case llm.RoleTool:
			tc := asked[m.ToolCallID]
			tc.ID, tc.Name = m.ToolCallID, m.Name
			calls = append(calls, tc)
			results[m.ToolCallID] = m.Content
		}
	}
	if len(calls) == 0 {
		return "(no calls)", nil
	}
	var b strings.Builder
	ids := make([]string, len(calls))
	from := max(0, len(calls)-evidenceCalls)
	if from > 0 {
		fmt.Fprintf(&b, "(%d earlier calls left out)\n", from)
	}
	for i, tc := range calls {
		ids[i] = tc.ID
		if i >= from {
			args, _, _ := splitMeta(tc.Arguments)
			fmt.Fprintf(&b, "- %s %s\n  result: %s\n", tc.Name, clip(args, evidenceLimit), clip(results[tc.ID], evidenceLimit))
		}
	}
	return b.String(), ids
}

// complete is the completion check of an answer under the plan strategy:
// the hard conditions first (every required step passed, no unresolved
// failed call), then the model's confidence against the threshold. An
// answer that fails it is kept as the best result, and the model goes on.
func (r *Run) complete(ctx context.Context, answer string) (outcome, bool) {
	r.stage = event.StageCompletion
	g := &r.st.Guards
	p := r.st.Plan
	data := event.CompletionCheckedData{Threshold: r.confidence(), UnresolvedFailure: g.LastFailure}
	var missing []int
	if p != nil {
		missing = p.missing()
		data.StepsPassed, data.StepsRequired, data.Missing = p.passed(), p.required(), missing
	}
	if len(missing) > 0 || g.LastFailure != "" {
		r.publish(event.CompletionChecked, data)
		return r.notDone(answer, notDoneHint(missing, p, g.LastFailure))
	}
	var verdict struct {
		Confidence *float64 `json:"confidence"`
		Reason     string   `json:"reason"`
	}
	rep, err := r.stageCall(ctx, tempEvaluate, confidencePrompt, confidenceMessage(r.st.Task, p, answer),
		func(raw []byte, _ bool) string {
			if json.Unmarshal(raw, &verdict) != nil || verdict.Confidence == nil || *verdict.Confidence < 0 || *verdict.Confidence > 1 {
				return `The object must be {"confidence": a number from 0 to 1, "reason": "one line"}.`
			}
			return ""
		})
	if ctx.Err() != nil {
		return outcome{}, true
	}
	data.Usage, data.LatencyMS = rep.usage, rep.latencyMS()
	if err != nil && !errors.Is(err, ErrUnreadableReply) {
		// The check could not be asked (the endpoint failed, the reply ran
		// away, the request would not fit): the answer is given back, but
		// nothing vouches for it.
		data.Reason = i18n.T("agent.completion.unchecked", err.Error())
		r.publish(event.CompletionChecked, data)
		r.guard(event.GuardUnverified, event.ActionWarn, data.Reason)
		return outcome{status: event.StatusFinished, answer: answer, reason: data.Reason}, true
	}
	if err != nil {
		// An unreadable rating does not hold back an answer that met the
		// hard conditions.
		data.Passed, data.Reason = true, i18n.T("agent.completion.unreadable", err.Error())
		r.publish(event.CompletionChecked, data)
		return outcome{status: event.StatusFinished, answer: answer, verified: r.vouch(), reason: data.Reason}, true
	}
	data.Confidence, data.Reason = *verdict.Confidence, verdict.Reason
	data.Passed = data.Confidence >= data.Threshold
	r.publish(event.CompletionChecked, data)
	if data.Passed {
		return outcome{status: event.StatusFinished, answer: answer, verified: r.vouch(), confidence: data.Confidence, reason: data.Reason}, true
	}
	return r.notDone(answer, lowConfidenceHint(data.Confidence, data.Threshold, data.Reason))
}

// notDone keeps an answer that did not pass the completion check as the
// best result so far and sends the model back to work; answers that keep
// failing it count as turns without progress.
func (r *Run) notDone(answer, hint string) (outcome, bool) {
	r.st.Best = answer
	r.turns = append(r.turns, llm.Message{Role: llm.RoleUser, Content: hint})
	return r.noProgress()
}
