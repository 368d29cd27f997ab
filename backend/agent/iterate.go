package agent

import (
	"context"
	"fmt"
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
	// A message routed directly is answered in one turn without tools.
	direct := r.st.Route == event.RouteDirect && r.st.Iteration == 1
	r.stage = event.StageDeciding
	if direct {
		r.stage = event.StageIntake
	}
	r.publish(event.IterationStarted, event.IterationStartedData{})
	r.endInSight()
	var defs []llm.ToolDef
	saved := 0
	if !direct {
		defs, saved = r.toolDefs()
	}
	if r.planned() && !r.jsonProtocol() {
		defs = r.withMeta(defs)
	}
	built, in, compressed := r.buildContext(ctx, defs)
	r.publishContext(built, in, defs, compressed, saved)
	if err := r.fits(built.Tokens); err != nil {
		return outcome{status: event.StatusFailed, err: err.Error()}, true
	}

	temp := tempDecide
	if direct || r.planned() && r.st.Plan.next() == nil {
		temp = tempAnswer
	}
	resp, err := r.ask(ctx, built.Messages, in.Tools, temp)
	r.st.Totals.Iterations++
	if err != nil {
		if ctx.Err() != nil {
			return outcome{}, true
		}
		return outcome{status: event.StatusFailed, err: err.Error()}, true
	}
	r.builder.Observe(resp.Usage.PromptTokens)
	r.spend(spent(temp), resp.Usage)

	rep, problem := r.read(resp)
	rep.spent = spent(temp)
	switch {
	case problem != "":
		return r.unreadable(rep, problem)
	case len(rep.ToolCalls) == 0:
		return r.answer(ctx, rep, direct)
	}
	if r.planned() {
		r.settle(ctx, rep.metas)
		if ctx.Err() != nil {
			return outcome{}, true
		}
		r.stage = event.StageDeciding
	}
	return r.act(ctx, rep)
}

// reply is a turn's answer as the loop reads it. Content stays as the model
// wrote it, for the conversation; text is the thought, or the final answer,
// as the events show it. Under a plan, args are the calls' arguments to
// validate, with _meta taken out into metas; otherwise all three are nil.
type reply struct {
	llm.Response
	text     string
	args     []string
	metas    []*callMeta
	repaired []bool
	spent    string // the stage token key of the turn's usage
}

// read turns a response into a reply: under the JSON protocol the calls are
// parsed from the text, and under a plan each call's _meta is taken out. It
// returns what is wrong with a reply that cannot be read.
func (r *Run) read(resp llm.Response) (reply, string) {
	rep := reply{Response: resp, text: resp.Content}
	if r.jsonProtocol() {
		jr, problem := parseJSONReply(resp.Content, r.st.Iteration)
		if problem != "" {
			return rep, problem
		}
		rep.ToolCalls, rep.text = jr.calls, jr.text
		if jr.meta != nil && r.planned() {
			rep.metas = []*callMeta{jr.meta}
		}
	}
	if r.planned() && !r.jsonProtocol() {
		n := len(rep.ToolCalls)
		rep.args, rep.metas, rep.repaired = make([]string, n), make([]*callMeta, n), make([]bool, n)
		for i, tc := range rep.ToolCalls {
			rep.args[i], rep.metas[i], rep.repaired[i] = splitMeta(tc.Arguments)
		}
	}
	return rep, ""
}

// call returns the arguments of call i to validate, and whether they were
// repaired to take _meta out.
func (rep reply) call(i int) (args string, repaired bool) {
	if rep.args == nil {
		return rep.ToolCalls[i].Arguments, false
	}
	return rep.args[i], rep.repaired[i]
}

// ask sends the request, publishing streamed text in batches and every
// retry, so viewers see them while the model never does.
func (r *Run) ask(ctx context.Context, msgs []llm.Message, defs []llm.ToolDef, temp tempKind) (llm.Response, error) {
	// The thinking comes before the text, so it is published first.
	var thought, pending strings.Builder
	last := r.now()
	flush := func() {
		if thought.Len() > 0 {
			r.publish(event.ModelReasoning, event.ModelReasoningData{Text: thought.String()})
			thought.Reset()
		}
		if pending.Len() > 0 {
			r.publish(event.ModelDelta, event.ModelDeltaData{Text: pending.String()})
			pending.Reset()
		}
		last = r.now()
	}
	gather := func(b *strings.Builder) func(string) {
		return func(text string) {
			b.WriteString(text)
			if r.now().Sub(last) >= deltaBatch {
				flush()
			}
		}
	}
	if r.jsonProtocol() {
		msgs = jsonWire(msgs)
	}
	req := llm.Request{
		Model:       r.setup.ModelName,
		Messages:    msgs,
		Tools:       defs,
		Temperature: r.temperature(temp),
		TopP:        r.topP(temp),
		OnDelta:     gather(&pending),
		OnReasoning: gather(&thought),
		OnRetry: func(rt llm.Retry) {
			// The failed attempt's text is discarded by viewers too.
			thought.Reset()
			pending.Reset()
			r.publish(event.ModelRetried, event.ModelRetriedData{Attempt: rt.Attempt, WaitMS: rt.Wait.Milliseconds(), Error: rt.Err, Stage: r.stage})
		},
	}
	resp, err := r.setup.Model.Chat(ctx, req)
	if err == nil {
		flush()
	}
	return resp, err
}

// reasoningSender is a Model that says which reasoning it sends back to
// the provider, as *llm.Client does.
type reasoningSender interface {
	SendsReasoning(model string, m llm.Message) bool
}

// sent keeps an assistant turn's reasoning in the conversation only when
// the model's provider gets it back, so the context counts what is sent;
// model.decided keeps it either way.
func (r *Run) sent(m llm.Message) llm.Message {
	if s, ok := r.setup.Model.(reasoningSender); !ok || !s.SendsReasoning(r.setup.ModelName, m) {
		m.Reasoning = ""
	}
	return m
}

// addUsage counts a summary's usage (buildContext); the model's turns and
// the stages' calls count theirs with spend.
func (r *Run) addUsage(u llm.Usage) { r.spend(event.SpentSummary, u) }

// spent is the stage token key of a request of kind temp.
func spent(temp tempKind) string {
	return [...]string{event.SpentRoute, event.SpentPlan, event.SpentDecide, event.SpentEvaluate, event.SpentAnswer}[temp]
}

// spend adds a request's usage to the totals and to what its stage spent.
func (r *Run) spend(key string, u llm.Usage) {
	r.st.Totals.PromptTokens += u.PromptTokens
	r.st.Totals.CompletionTokens += u.CompletionTokens
	r.st.Totals.ReasoningTokens += u.ReasoningTokens
	r.st.Totals.CachedTokens += u.CachedTokens
	r.addCost(key, u)
	total := u.TotalTokens
	if total == 0 {
		total = u.PromptTokens + u.CompletionTokens
	}
	r.st.Totals.TotalTokens += total
	if total > 0 {
		if r.st.Totals.StageTokens == nil {
			r.st.Totals.StageTokens = map[string]int{}
		}
		r.st.Totals.StageTokens[key] += total
	}
}

func (r *Run) decided(rep reply, calls []event.DecidedCall) event.ModelDecidedData {
	d := event.ModelDecidedData{
		ToolCalls: calls, FinishReason: rep.FinishReason, Usage: rep.Usage,
		LatencyMS: rep.Latency.Milliseconds(), Attempts: rep.Attempts, Stage: r.stage,
		Reasoning: rep.Reasoning, Spent: rep.spent, FirstTokenMS: rep.FirstToken.Milliseconds(),
	}
	d.Cost, d.Currency = r.costOf(r.setup.ModelName, rep.Usage)
	if len(calls) == 0 {
		d.FinalAnswer = rep.text
	} else {
		d.Thought = rep.text
	}
	return d
}

// answer handles a turn without tool calls: the final answer, unless it is
// empty or follows a failed call that the model has not yet looked at
// again. Under the plan strategy the completion check decides instead.
func (r *Run) answer(ctx context.Context, rep reply, direct bool) (outcome, bool) {
	r.publish(event.ModelDecided, r.decided(rep, nil))
	r.turns = append(r.turns, r.sent(llm.Message{Role: llm.RoleAssistant, Content: rep.Content, Reasoning: rep.Reasoning}))
	g := &r.st.Guards
	if strings.TrimSpace(rep.text) == "" {
		r.turns = append(r.turns, llm.Message{Role: llm.RoleUser, Content: emptyReplyHint})
		return r.noProgress()
	}
	if r.st.Strategy == StrategyPlan && !direct {
		return r.complete(ctx, rep.text)
	}
	if g.LastFailure != "" && !g.VerifyGranted {
		g.VerifyGranted = true
		r.guard(event.GuardUnverified, event.ActionWarn, i18n.T("agent.guard.verify", i18n.Clause(g.LastFailure)))
		r.turns = append(r.turns, llm.Message{Role: llm.RoleUser, Content: verifyHint(g.LastFailure)})
		return outcome{}, false
	}
	return outcome{status: event.StatusFinished, answer: rep.text, verified: r.vouch()}, true
}

// noProgress counts a turn that got nothing done, and stops the run when
// there have been too many in a row.
func (r *Run) noProgress() (outcome, bool) {
	if r.noteProgress(false) {
		msg := i18n.T("agent.guard.no_progress", r.st.Guards.NoProgress)
		r.guard(event.GuardNoProgress, event.ActionStop, msg)
		return outcome{status: event.StatusGuard, err: msg}, true
	}
	return outcome{}, false
}

// unreadable handles a JSON-protocol reply that is not the JSON asked for:
// the model is told what is wrong, and the turn counts as no progress.
func (r *Run) unreadable(rep reply, problem string) (outcome, bool) {
	d := event.ModelDecidedData{
		Thought: rep.Content, Reasoning: rep.Reasoning, FinishReason: rep.FinishReason, Usage: rep.Usage,
		LatencyMS: rep.Latency.Milliseconds(), Attempts: rep.Attempts, Stage: r.stage, Spent: rep.spent,
		FirstTokenMS: rep.FirstToken.Milliseconds(),
	}
	d.Cost, d.Currency = r.costOf(r.setup.ModelName, rep.Usage)
	r.publish(event.ModelDecided, d)
	r.guard(event.GuardInvalidCall, event.ActionWarn, i18n.T("agent.guard.unreadable_reply", problem))
	r.turns = append(r.turns,
		r.sent(llm.Message{Role: llm.RoleAssistant, Content: rep.Content, Reasoning: rep.Reasoning}),
		llm.Message{Role: llm.RoleUser, Content: fmt.Sprintf(jsonInvalidHint, problem)})
	return r.noProgress()
}
