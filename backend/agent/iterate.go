package agent

import (
	"context"
	"strings"
	"time"

	"hermes/backend/event"
	"hermes/backend/i18n"
	"hermes/backend/llm"
)

// deltaBatch is how long streamed text gathers before it is published, so a
// fast stream does not flood viewers with one event per token.
const deltaBatch = 50 * time.Millisecond

// safePoint applies the controls queued so far: at the iteration boundary,
// or after a decision and before its calls run (at = event.PausedAtDecided,
// with the pending calls, whose arguments may then be edited). A pause holds
// the run here until it is resumed or stopped. It reports whether to stop.
func (r *Run) safePoint(ctx context.Context, at string, pending []*call) bool {
	paused := false
	for {
		for _, c := range r.controls.take(func(Control) bool { return true }) {
			switch c.Kind {
			case ControlStop:
				return true
			case ControlPause:
				if !paused {
					paused = true
					r.publish(event.RunPaused, event.RunPausedData{At: at, PendingCalls: decidedCalls(pending)})
				}
			case ControlResume:
				if paused {
					paused = false
					r.publish(event.RunResumed, event.RunResumedData{})
				}
			case ControlInject:
				// Between a decision and its results nothing may stand in the
				// conversation, so an instruction given there waits for them.
				r.injected = append(r.injected, c.Text)
				if at == event.PausedAtBoundary {
					r.takeInjected()
				}
			case ControlEdit:
				r.publish(event.TaskEdited, event.TaskEditedData{
					OldTask: r.st.Task, NewTask: c.Task, OldInstructions: r.st.Instr, NewInstructions: c.Instructions,
				})
				r.st.Task, r.st.Instr = c.Task, c.Instructions
			case ControlEditCall:
				r.editCall(pending, c)
			case ControlPin:
				r.pin(c)
			}
		}
		if !paused {
			return false
		}
		select {
		case <-r.controls.arrived:
		case <-ctx.Done():
			return false // Execute sees the cancelled context
		}
	}
}

// takeInjected adds the waiting injected instructions to the conversation.
func (r *Run) takeInjected() {
	for _, text := range r.injected {
		r.turns = append(r.turns, llm.Message{Role: llm.RoleUser, Content: injectedInstruction(text)})
		r.publish(event.InstructionInjected, event.InstructionInjectedData{Text: text})
	}
	r.injected = nil
}

// editCall replaces the arguments of a pending call, validating them as the
// model's own would be.
func (r *Run) editCall(pending []*call, c Control) {
	for _, p := range pending {
		if p.ID != c.CallID {
			continue
		}
		old := p.Arguments
		p.Arguments = c.Arguments
		p.invalid = ""
		prep, err := r.setup.Tools.Prepare(p.Name, c.Arguments)
		if err != nil {
			p.invalid = err.Error()
		}
		p.prep = prep
		r.publish(event.CallEdited, event.CallEditedData{CallID: p.ID, Name: p.Name, OldArguments: old, NewArguments: c.Arguments})
		return
	}
}

// iterate runs one model turn and its tool calls. It reports whether the run
// ends with this iteration and how.
func (r *Run) iterate(ctx context.Context) (outcome, bool) {
	r.publish(event.IterationStarted, event.IterationStartedData{})
	defs, saved := r.toolDefs()
	built, in, compressed := r.buildContext(ctx, defs)
	r.publishContext(built, in, compressed, saved)

	resp, err := r.ask(ctx, built.Messages, defs)
	r.st.Totals.Iterations++
	if err != nil {
		if ctx.Err() != nil {
			return outcome{}, true
		}
		return outcome{status: event.StatusFailed, err: err.Error()}, true
	}
	r.builder.Observe(resp.Usage.PromptTokens)
	r.addUsage(resp.Usage)

	if len(resp.ToolCalls) == 0 {
		return r.answer(resp)
	}
	return r.act(ctx, resp)
}

// ask sends the request, publishing streamed text in batches and every
// retry, so viewers see them while the model never does.
func (r *Run) ask(ctx context.Context, msgs []llm.Message, defs []llm.ToolDef) (llm.Response, error) {
	var pending strings.Builder
	last := r.now()
	flush := func() {
		if pending.Len() > 0 {
			r.publish(event.ModelDelta, event.ModelDeltaData{Text: pending.String()})
			pending.Reset()
		}
		last = r.now()
	}
	req := llm.Request{
		Model:    r.setup.ModelName,
		Messages: msgs,
		Tools:    defs,
		OnDelta: func(text string) {
			pending.WriteString(text)
			if r.now().Sub(last) >= deltaBatch {
				flush()
			}
		},
		OnRetry: func(rt llm.Retry) {
			pending.Reset() // the failed attempt's text is discarded by viewers too
			r.publish(event.ModelRetried, event.ModelRetriedData{Attempt: rt.Attempt, WaitMS: rt.Wait.Milliseconds(), Error: rt.Err})
		},
	}
	resp, err := r.setup.Model.Chat(ctx, req)
	if err == nil {
		flush()
	}
	return resp, err
}

func (r *Run) addUsage(u llm.Usage) {
	r.st.Totals.PromptTokens += u.PromptTokens
	r.st.Totals.CompletionTokens += u.CompletionTokens
	total := u.TotalTokens
	if total == 0 {
		total = u.PromptTokens + u.CompletionTokens
	}
	r.st.Totals.TotalTokens += total
}

func decided(resp llm.Response, calls []event.DecidedCall) event.ModelDecidedData {
	d := event.ModelDecidedData{
		ToolCalls: calls, FinishReason: resp.FinishReason, Usage: resp.Usage,
		LatencyMS: resp.Latency.Milliseconds(), Attempts: resp.Attempts,
	}
	if len(calls) == 0 {
		d.FinalAnswer = resp.Content
	} else {
		d.Thought = resp.Content
	}
	return d
}

// answer handles a turn without tool calls: the final answer, unless it is
// empty or follows a failed call that the model has not yet looked at again.
func (r *Run) answer(resp llm.Response) (outcome, bool) {
	r.publish(event.ModelDecided, decided(resp, nil))
	r.turns = append(r.turns, llm.Message{Role: llm.RoleAssistant, Content: resp.Content})
	g := &r.st.Guards
	if strings.TrimSpace(resp.Content) == "" {
		r.turns = append(r.turns, llm.Message{Role: llm.RoleUser, Content: emptyReplyHint})
		if r.noteProgress(false) {
			msg := i18n.T("agent.guard.no_progress", g.NoProgress)
			r.guard(event.GuardNoProgress, event.ActionStop, msg)
			return outcome{status: event.StatusGuard, err: msg}, true
		}
		return outcome{}, false
	}
	if g.LastFailure != "" && !g.VerifyGranted {
		g.VerifyGranted = true
		r.guard(event.GuardUnverified, event.ActionWarn, i18n.T("agent.guard.verify", g.LastFailure))
		r.turns = append(r.turns, llm.Message{Role: llm.RoleUser, Content: verifyHint(g.LastFailure)})
		return outcome{}, false
	}
	verified := g.LastFailure == ""
	if !verified {
		r.guard(event.GuardUnverified, event.ActionWarn, i18n.T("agent.guard.unverified", g.LastFailure))
	}
	return outcome{status: event.StatusFinished, answer: resp.Content, verified: verified}, true
}
