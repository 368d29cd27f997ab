package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"hermes/backend/event"
	"hermes/backend/i18n"
	"hermes/backend/llm"
	"hermes/backend/runlog"
	"hermes/backend/sandbox"
	"hermes/backend/toolbox"
)

// call is one tool call of a turn on its way to a result.
type call struct {
	llm.ToolCall
	prep    toolbox.Prepared
	meta    *callMeta // what the model said of the call under a plan
	invalid string    // why the call was refused before running, for the model
	skipped string    // why the call did not run though valid (a guard or a stop)
	denied  string    // why a policy or a person denied it
	content string    // the tool message the model will see
	failure string    // "" when the call succeeded
	// sandboxing is how its process ran; the tool reports it from its own
	// goroutine, which a timeout may leave behind.
	sandboxing atomic.Pointer[toolbox.Sandboxing]
}

func (c *call) valid() bool { return c.invalid == "" }

func decidedCalls(calls []*call) []event.DecidedCall {
	if len(calls) == 0 {
		return nil
	}
	out := make([]event.DecidedCall, len(calls))
	for i, c := range calls {
		out[i] = event.DecidedCall{
			ID: c.ID, Name: c.Name, Arguments: c.Arguments, Repaired: c.prep.Repaired, Valid: c.valid(), Error: c.invalid,
			Provenance: provenanceOf(c.meta),
		}
	}
	return out
}

// act validates the turn's tool calls, gives a paused run the chance to edit
// them, asks for the approvals they need, runs them, appends their results
// in call order, and applies the guards that watch calls. Under a plan it
// then reviews them: a guessed value that failed is asked about, and a
// finished step is checked.
func (r *Run) act(ctx context.Context, rep reply) (outcome, bool) {
	calls := make([]*call, len(rep.ToolCalls))
	for i, tc := range rep.ToolCalls {
		if tc.ID == "" {
			tc.ID = fmt.Sprintf("call_%d_%d", r.st.Iteration, i+1)
		}
		c := &call{ToolCall: tc}
		args, repaired := rep.call(i)
		prep, err := r.setup.Tools.Prepare(tc.Name, args)
		if err != nil {
			c.invalid = err.Error()
		}
		prep.Repaired = prep.Repaired || repaired
		c.prep = prep
		if rep.metas != nil {
			c.meta = rep.metas[i]
		}
		calls[i] = c
	}
	data := r.decided(rep, decidedCalls(calls))
	var d decision
	var driftForModel string
	if r.planned() {
		d = r.decide(rep.metas)
		data.Step, data.StepStatus, data.ServesGoal = d.step, d.status, d.servesGoal
		if key, args := r.drift(d, calls); key != "" {
			data.Drift, driftForModel = i18n.T(key, args...), i18n.In(i18n.EN, key, args...)
		}
	}
	r.publish(event.ModelDecided, data)
	if data.Drift != "" {
		r.guard(event.GuardDrift, event.ActionWarn, i18n.T("agent.guard.drift", data.Drift))
	}
	stopped := r.safePoint(ctx, event.PausedAtDecided, calls)

	// The conversation keeps the calls as they ran, edits included.
	assistant := llm.Message{Role: llm.RoleAssistant, Content: rep.Content, Reasoning: rep.Reasoning, ToolCalls: make([]llm.ToolCall, len(calls))}
	for i, c := range calls {
		assistant.ToolCalls[i] = c.ToolCall
	}
	r.turns = append(r.turns, r.sent(assistant))
	if ctx.Err() != nil {
		return outcome{}, true
	}

	r.stage = event.StageActing
	var hints []string
	var stop *outcome
	if stopped {
		skipAll(calls, "Not run: the user stopped the run before this call ran.")
		stop = &outcome{status: event.StatusStopped, err: i18n.T("agent.stopped")}
	} else {
		hints, stop = r.checkRepeats(calls)
	}
	if stop == nil && r.approveCalls(ctx, calls) {
		if ctx.Err() != nil {
			return outcome{}, true
		}
		stop = &outcome{status: event.StatusStopped, err: i18n.T("agent.stopped")}
	}

	r.runCalls(ctx, calls)
	for _, c := range calls {
		r.turns = append(r.turns, llm.Message{Role: llm.RoleTool, ToolCallID: c.ID, Name: c.Name, Content: c.content})
	}
	r.takeInjected()
	r.st.Totals.ToolCalls += len(calls)
	if stop != nil {
		return *stop, true
	}
	out, done := r.observe(calls, hints)
	if done || !r.planned() {
		return out, done
	}
	if driftForModel != "" {
		r.turns = append(r.turns, llm.Message{Role: llm.RoleUser, Content: driftHint(driftForModel, r.st.Task, r.st.Plan.current())})
	}
	return r.review(ctx, d, calls)
}

func skipAll(calls []*call, reason string) {
	for _, c := range calls {
		if c.skipped == "" {
			c.skipped = reason
		}
	}
}

// checkRepeats counts identical calls in a row: the call that reaches the
// limit gets an intervention for the model, the one past it stops the run.
func (r *Run) checkRepeats(calls []*call) ([]string, *outcome) {
	var hints []string
	for i, c := range calls {
		if !c.valid() {
			continue
		}
		warn, halt := r.noteRepeat(c.Name + " " + string(c.prep.Args))
		if halt {
			msg := i18n.T("agent.guard.repeated_stop", c.Name, r.st.Guards.Repeats)
			r.guard(event.GuardRepeatedCall, event.ActionStop, msg, c.Name+" "+string(c.prep.Args))
			skipAll(calls[i:], "Not run: the run was stopped by the repeated-call guard.")
			return hints, &outcome{status: event.StatusGuard, err: msg}
		}
		if warn {
			r.guard(event.GuardRepeatedCall, event.ActionWarn, i18n.T("agent.guard.repeated_warn", c.Name, r.st.Guards.Repeats))
			hints = append(hints, repeatedCallHint(c.Name, r.st.Guards.Repeats))
		}
	}
	return hints, nil
}

// observe updates the guards from the calls' outcomes.
func (r *Run) observe(calls []*call, hints []string) (outcome, bool) {
	g := &r.st.Guards
	observed := false
	for _, c := range calls {
		if c.failure == "" {
			observed = true
		}
		r.noteOutcome(c)
		if _, known := r.setup.Tools.Get(c.Name); !known {
			continue
		}
		if attempts := r.noteCall(c.Name, string(c.prep.Args), c.failure); attempts != nil {
			msg := i18n.T("agent.guard.tool_failures", c.Name, len(attempts))
			r.guard(event.GuardToolFailures, event.ActionStop, msg, attempts...)
			return outcome{status: event.StatusGuard, err: msg}, true
		}
	}
	// Only a call that ran can leave the work undone; a refused one never
	// touched anything.
	if last := calls[len(calls)-1]; last.valid() && last.failure != "" {
		g.LastFailure = last.Name + ": " + last.failure
	} else if last.failure == "" {
		g.LastFailure, g.VerifyGranted = "", false
	}
	if r.noteProgress(observed) {
		msg := i18n.T("agent.guard.no_progress", g.NoProgress)
		r.guard(event.GuardNoProgress, event.ActionStop, msg)
		return outcome{status: event.StatusGuard, err: msg}, true
	}
	near, stop := r.checkNear(calls)
	if stop != nil {
		return *stop, true
	}
	for _, h := range append(hints, near...) {
		r.turns = append(r.turns, llm.Message{Role: llm.RoleUser, Content: h})
	}
	return outcome{}, false
}

// runCalls runs the calls: runs of consecutive read-only calls together,
// every other call alone, so writes happen in the order the model gave.
func (r *Run) runCalls(ctx context.Context, calls []*call) {
	for i := 0; i < len(calls); {
		c := calls[i]
		switch {
		case c.skipped != "":
			c.content, c.failure = c.skipped, "skipped"
			i++
		case c.denied != "":
			c.content = "Error: " + c.denied
			r.publish(event.ToolFinished, event.ToolFinishedData{CallID: c.ID, Name: c.Name, Result: c.content, Size: len(c.content), Error: c.denied})
			i++
		case !c.valid():
			c.content, c.failure = "Error: "+c.invalid, c.invalid
			r.publish(event.ToolFinished, event.ToolFinishedData{CallID: c.ID, Name: c.Name, Result: c.content, Size: len(c.content), Error: c.invalid})
			i++
		case !c.prep.Tool.ReadOnly():
			r.runCall(ctx, c)
			i++
		default:
			j := i
			var wg sync.WaitGroup
			for ; j < len(calls) && runnable(calls[j]) && calls[j].prep.Tool.ReadOnly(); j++ {
				wg.Add(1)
				go func(c *call) {
					defer wg.Done()
					r.runCall(ctx, c)
				}(calls[j])
			}
			wg.Wait()
			i = j
		}
	}
}

func runnable(c *call) bool { return c.valid() && c.skipped == "" && c.denied == "" }

// callEnv is what a call may know of its run; the policy is asked with
// the same. How the call's process ran lands in c.sandboxing.
func (r *Run) callEnv(c *call) toolbox.Env {
	return toolbox.Env{Workspace: r.st.Workspace, Home: r.setup.Home, RunID: r.st.RunID, CallID: c.ID,
		Sandbox: r.runSandbox(), Sandboxed: func(s toolbox.Sandboxing) { c.sandboxing.Store(&s) }}
}

// runSandbox is the sandbox the run's processes run in beyond [tools]'s.
func (r *Run) runSandbox() toolbox.RunSandbox {
	s := r.setup.Sandbox
	if r.st.Sandbox != "" {
		s.Mode = sandbox.Mode(r.st.Sandbox)
	}
	return s
}

// sandboxStatus is how the run's commands are confined, for run.started.
func (r *Run) sandboxStatus() *event.SandboxData {
	if r.setup.SandboxStatus == nil {
		return nil
	}
	return r.setup.SandboxStatus(r.runSandbox())
}

// toolSandbox is how a call's process ran, for tool.finished.
func toolSandbox(c *call) *event.ToolSandbox {
	s := c.sandboxing.Load()
	if s == nil {
		return nil
	}
	out := &event.ToolSandbox{Confined: s.Confined, Escaped: s.Escaped, Why: s.Why}
	for _, d := range s.Blocked {
		out.Blocked = append(out.Blocked, event.Blocked{Kind: d.Kind, What: d.What, By: d.By})
	}
	return out
}

// runCall runs one call under its timeout, retrying a transient failure
// once. The retry is published but never shown to the model. What the tool
// returns, output or error, is redacted before anything else sees it: a
// command can print a secret (an environment, a copy of hermes.toml), and
// the model must not be sent it any more than the log.
func (r *Run) runCall(ctx context.Context, c *call) {
	t := c.prep.Tool
	timeout := t.Timeout
	if timeout <= 0 {
		timeout = r.limits.ToolTimeout
	}
	env := r.callEnv(c)
	for attempt := 1; ; attempt++ {
		r.publish(event.ToolStarted, event.ToolStartedData{CallID: c.ID, Name: c.Name, Arguments: string(c.prep.Args), Attempt: attempt})
		start := r.now()
		out, err := runTool(ctx, t, env, c.prep.Args, timeout)
		out = r.setup.Redactor.String(out)
		done := event.ToolFinishedData{CallID: c.ID, Name: c.Name, DurationMS: r.now().Sub(start).Milliseconds(), Attempt: attempt,
			Sandbox: toolSandbox(c)}
		if err != nil {
			done.Error = r.setup.Redactor.String(err.Error())
			if attempt == 1 && ctx.Err() == nil && (toolbox.IsTransient(err) || errors.Is(err, context.DeadlineExceeded)) {
				r.publish(event.ToolFinished, done)
				continue
			}
			c.failure = done.Error
			c.content = "Error: " + done.Error
			done.Result, done.Size = c.content, len(c.content)
			r.publish(event.ToolFinished, done)
			return
		}
		c.content, done.Artifact = r.distil(c.ID, out)
		done.OK, done.Result, done.Size = true, c.content, len(out)
		r.publish(event.ToolFinished, done)
		return
	}
}

// runTool calls the tool and gives up on it at its timeout even if it does
// not watch its context; a panic becomes an error the model can read.
func runTool(ctx context.Context, t toolbox.Tool, env toolbox.Env, args []byte, timeout time.Duration) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	type result struct {
		out string
		err error
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- result{err: fmt.Errorf("the tool %s crashed (%v); this is a bug in the tool, try another way", t.Name, p)}
			}
		}()
		out, err := t.Run(ctx, env, args)
		done <- result{out, err}
	}()
	select {
	case res := <-done:
		if res.err != nil && ctx.Err() == context.DeadlineExceeded {
			return "", timeoutError(t.Name, timeout)
		}
		return res.out, res.err
	case <-ctx.Done():
		if ctx.Err() == context.DeadlineExceeded {
			return "", timeoutError(t.Name, timeout)
		}
		return "", ctx.Err()
	}
}

func timeoutError(name string, d time.Duration) error {
	return fmt.Errorf("the tool %s did not finish within %s; try a smaller request: %w", name, d, context.DeadlineExceeded)
}

// distil returns what the model sees of a tool's redacted output: all of
// it when it is short, else its head and tail around a note of what was
// cut, with the whole output kept as an artifact.
func (r *Run) distil(callID, out string) (content, artifact string) {
	limit := r.limits.ObservationLimit
	if len(out) <= limit || utf8.RuneCountInString(out) <= limit {
		return out, ""
	}
	ref, err := runlog.SaveArtifact(r.setup.Home, r.st.RunID, callID, []byte(out))
	runes := []rune(out)
	head, tail := limit*2/3, limit/3
	cut := len(runes) - head - tail
	var b strings.Builder
	b.WriteString(string(runes[:head]))
	fmt.Fprintf(&b, "\n\n[... %d of %d characters cut here (characters %d to %d)", cut, len(runes), head, head+cut)
	_, readable := r.setup.Tools.Get(toolbox.ReadArtifactName)
	switch {
	case err != nil:
		b.WriteString("; the whole output could not be saved. To see the cut part, ask for a smaller piece, such as read_file with offset_line and limit_lines.]")
	case readable:
		fmt.Fprintf(&b, "; the whole output is saved as %s. To read the cut part, call %s with ref %q, offset %d and limit %d.]",
			ref, toolbox.ReadArtifactName, ref, head, min(cut, limit/2, toolbox.ReadArtifactMax))
	default:
		fmt.Fprintf(&b, "; it is saved as %s. To see the cut part, ask for a smaller piece, such as read_file with offset_line and limit_lines.]", ref)
	}
	b.WriteString("\n\n")
	b.WriteString(string(runes[len(runes)-tail:]))
	if err != nil {
		return b.String(), ""
	}
	return b.String(), ref
}
