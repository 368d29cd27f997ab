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
// about evidenceLimit characters of each call's arguments and of its
// result, its start and its end (where a command's summary is): enough to
// judge acceptance criteria, which name what a result shows.
const (
	evidenceCalls = 12
	evidenceLimit = 600
)

// clipEvidence keeps the start and the end of text, saying how much of
// the middle was left out.
func clipEvidence(text string) string {
	text = strings.TrimSpace(text)
	runes := []rune(text)
	if len(runes) <= evidenceLimit {
		return text
	}
	half := evidenceLimit / 2
	return fmt.Sprintf("%s … (%d characters left out) … %s", string(runes[:half]), len(runes)-2*half, string(runes[len(runes)-half:]))
}

// review follows a plan's turn after its calls ran: a guessed value that
// made a call fail is asked about instead of guessed again; otherwise a
// step the decision finished waits for its check.
func (r *Run) review(ctx context.Context, d decision, calls []*call) (outcome, bool) {
	asked, stopped := r.askAboutGuesses(ctx, calls)
	switch {
	case ctx.Err() != nil:
		return outcome{}, true
	case stopped:
		return outcome{status: event.StatusStopped, err: i18n.T("agent.stopped")}, true
	case !asked && d.status == stepFinished:
		r.finishStep(ctx, d, calls[len(calls)-1].failure != "")
	}
	return outcome{}, false
}

// finishStep takes a step the decision finished to its check. The model
// gives the verdict in its next decision, which sees the results anyway,
// so that the check costs no request of its own. The evaluator checks it
// right away when the step's last call failed (the plan may be wrong, and
// the next decision is better made under the revised one), and always for
// a model that once left the verdict out.
func (r *Run) finishStep(ctx context.Context, d decision, failed bool) {
	p := r.st.Plan
	s := p.step(d.step)
	if s == nil || s.Status == event.StepPassed {
		s = p.current()
	}
	if s == nil {
		return
	}
	if p.Eager || failed {
		r.evaluate(ctx, s)
		return
	}
	p.Checking = s.ID
}

// settle gives the step waiting for its check the verdict the decision
// carries in its _meta, before the decision's calls are read against the
// plan; without one, the evaluator checks it.
func (r *Run) settle(ctx context.Context, metas []*callMeta) {
	p := r.st.Plan
	s := p.step(p.checking())
	if s == nil {
		return
	}
	p.Checking = 0
	for _, m := range metas {
		if m != nil && m.Check != nil && m.Check.Passed != nil {
			evidence, ids := r.evidence(p.Since)
			r.verdict(ctx, s, event.StepEvaluatedData{
				Step: s.ID, Calls: ids, InDecision: true, Passed: *m.Check.Passed, Reason: m.Check.Reason,
				ContradictsPlan: m.Check.ContradictsPlan && !*m.Check.Passed,
			}, evidence)
			return
		}
	}
	p.Eager = true
	r.evaluate(ctx, s)
}

// evaluate asks the evaluator to check a step's results (the calls since
// the last check) against its acceptance criteria.
func (r *Run) evaluate(ctx context.Context, s *event.PlanStep) {
	p := r.st.Plan
	stage := r.stage
	r.stage = event.StageEvaluating
	defer func() { r.stage = stage }()
	evidence, ids := r.evidence(p.Since)
	var verdict stepCheck
	rep, err := r.stageCall(ctx, tempEvaluate, evaluatePrompt, evaluateMessage(r.st.Task, p, s, evidence),
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
		data.Reason = i18n.T("agent.evaluate.unreadable", i18n.Clause(err.Error()))
	} else {
		data.Passed, data.Reason = *verdict.Passed, verdict.Reason
		data.ContradictsPlan = verdict.ContradictsPlan && !data.Passed
	}
	r.verdict(ctx, s, data, evidence)
}

// verdict records a step's check. A failed check goes back to deciding
// with the reason (the model knows it when the verdict was its own); a
// result that contradicts the plan's assumptions replans the remaining
// steps.
func (r *Run) verdict(ctx context.Context, s *event.PlanStep, data event.StepEvaluatedData, evidence string) {
	p := r.st.Plan
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
	if !data.InDecision {
		r.turns = append(r.turns, llm.Message{Role: llm.RoleUser, Content: stepFailedHint(s, data.Reason)})
	}
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
			fmt.Fprintf(&b, "- %s %s\n  result: %s\n", tc.Name, clipEvidence(args), clipEvidence(results[tc.ID]))
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
	// An answer carries no _meta: the step it followed is checked with the
	// rating of the answer, in one request; the rating waits for the hard
	// conditions.
	var rated *rating
	if s := p.step(p.checking()); s != nil {
		p.Checking = 0
		if rated = r.checkAndRate(ctx, s, answer); rated == nil && ctx.Err() == nil {
			r.evaluate(ctx, s)
		}
		if ctx.Err() != nil {
			return outcome{}, true
		}
		r.stage = event.StageCompletion
	}
	data := event.CompletionCheckedData{Threshold: r.confidence(), UnresolvedFailure: g.LastFailure}
	var missing []int
	if p != nil {
		missing = p.missing()
		data.StepsPassed, data.StepsRequired, data.Missing = p.requiredPassed(), p.required(), missing
	}
	if len(missing) > 0 || g.LastFailure != "" {
		r.publish(event.CompletionChecked, data)
		return r.notDone(answer, notDoneHint(missing, p, g.LastFailure))
	}
	var verdict rating
	var rep stageReply
	var err error
	if rated != nil {
		verdict, rep = *rated, rated.rep
	} else {
		rep, err = r.stageCall(ctx, tempEvaluate, confidencePrompt, confidenceMessage(r.st.Task, p, answer),
			func(raw []byte, _ bool) string {
				if json.Unmarshal(raw, &verdict) != nil || !verdict.valid() {
					return `The object must be {"confidence": a number from 0 to 1, "reason": "one line"}.`
				}
				return ""
			})
	}
	if ctx.Err() != nil {
		return outcome{}, true
	}
	data.Usage, data.LatencyMS = rep.usage, rep.latencyMS()
	if err != nil && !errors.Is(err, ErrUnreadableReply) {
		// The check could not be asked (the endpoint failed, the reply ran
		// away, the request would not fit): the answer is given back, but
		// nothing vouches for it.
		data.Reason = i18n.T("agent.completion.unchecked", i18n.Clause(err.Error()))
		r.publish(event.CompletionChecked, data)
		r.guard(event.GuardUnverified, event.ActionWarn, data.Reason)
		return outcome{status: event.StatusFinished, answer: answer, reason: data.Reason}, true
	}
	if err != nil {
		// An unreadable rating does not hold back an answer that met the
		// hard conditions.
		data.Passed, data.Reason = true, i18n.T("agent.completion.unreadable", i18n.Clause(err.Error()))
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

// rating is the model's confidence in an answer; with a step's check,
// the request that gave both.
type rating struct {
	Confidence *float64 `json:"confidence"`
	Reason     string   `json:"reason"`
	rep        stageReply
}

func (v rating) valid() bool {
	return v.Confidence != nil && *v.Confidence >= 0 && *v.Confidence <= 1
}

// checkAndRate checks the step an answer followed and rates the answer in
// one request, and records the step's verdict (its event carries no usage:
// completion.checked carries the request's). It returns the rating, or nil
// when the reply could not be read and the step is still unchecked.
func (r *Run) checkAndRate(ctx context.Context, s *event.PlanStep, answer string) *rating {
	p := r.st.Plan
	r.stage = event.StageCompletion
	evidence, ids := r.evidence(p.Since)
	var v struct {
		stepCheck
		Confidence       *float64 `json:"confidence"`
		ConfidenceReason string   `json:"confidence_reason"`
	}
	rep, err := r.stageCall(ctx, tempEvaluate, finalCheckPrompt, finalCheckMessage(r.st.Task, p, s, evidence, answer),
		func(raw []byte, _ bool) string {
			if json.Unmarshal(raw, &v) != nil || v.Passed == nil || !(rating{Confidence: v.Confidence}).valid() {
				return `The object must be {"passed": true or false, "reason": "one line", "contradicts_plan": true or false, "confidence": a number from 0 to 1, "confidence_reason": "one line"}.`
			}
			return ""
		})
	if err != nil || ctx.Err() != nil {
		return nil
	}
	r.verdict(ctx, s, event.StepEvaluatedData{
		Step: s.ID, Calls: ids, Passed: *v.Passed, Reason: v.Reason,
		ContradictsPlan: v.ContradictsPlan && !*v.Passed,
	}, evidence)
	return &rating{Confidence: v.Confidence, Reason: v.ConfidenceReason, rep: rep}
}

// notDone keeps an answer that did not pass the completion check as the
// best result so far and sends the model back to work; answers that keep
// failing it count as turns without progress.
func (r *Run) notDone(answer, hint string) (outcome, bool) {
	r.st.Best = answer
	r.turns = append(r.turns, llm.Message{Role: llm.RoleUser, Content: hint})
	return r.noProgress()
}
