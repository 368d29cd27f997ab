package agent

import (
	"context"
	"encoding/json"
	"slices"

	"hermes/backend/event"
	"hermes/backend/i18n"
	"hermes/backend/toolbox"
)

// approveCalls asks the policy about each runnable call, in order, and waits
// for a person's answer where it says to ask. It reports whether the run was
// stopped while waiting; the calls not yet answered are then not run.
func (r *Run) approveCalls(ctx context.Context, calls []*call) bool {
	for i, c := range calls {
		if !runnable(c) || !r.approve(ctx, c) {
			continue
		}
		skipAll(calls[i+1:], "Not run: the user stopped the run before this call ran.")
		return true
	}
	return false
}

// approve settles one call. It reports true when a stop (or a cancelled
// context) ended the wait; the call is then denied.
func (r *Run) approve(ctx context.Context, c *call) bool {
	if r.setup.Policy == nil {
		return false
	}
	v := r.setup.Policy.Check(c.prep.Tool, c.prep.Args, r.callEnv(c))
	allowedForRun := slices.Contains(r.st.AllowedTools, c.Name) && !v.Sensitive && !v.Escaping
	switch {
	case v.Action == toolbox.Allow, v.Action == toolbox.Ask && allowedForRun:
		return false
	case v.Action == toolbox.Deny:
		c.denied = policyDeniedMessage(v.Reason)
		return false
	}
	id := "approval_" + c.ID
	var change json.RawMessage
	if preview := c.prep.Tool.Preview; preview != nil {
		// A call whose change cannot be worked out is asked with its
		// arguments alone; it fails the same way when it runs.
		change, _ = preview(c.prep.Args)
	}
	// The person reads why in their language, which may not be the
	// process's (a chat user, a browser); the model never reads it.
	r.publish(event.ApprovalRequested, event.ApprovalRequestedData{
		ApprovalID: id, CallID: c.ID, Name: c.Name, Arguments: string(c.prep.Args), Risk: string(c.prep.Tool.Risk),
		Reason: v.Shown(), ReasonIn: inBoth(v.Why),
		Escaping: v.Escaping, Commands: v.Commands, Risky: v.Risky, Patterns: v.Patterns, Change: change,
	})
	resolve := func(decision, reason, pattern, by string) {
		r.publish(event.ApprovalResolved, event.ApprovalResolvedData{
			ApprovalID: id, CallID: c.ID, Decision: decision, Reason: reason, Pattern: pattern, By: by,
		})
		if decision == event.ApproveDeny {
			c.denied = deniedMessage(by, reason)
		}
	}
	if r.setup.Unattended {
		resolve(event.ApproveDeny, i18n.In(i18n.EN, "agent.unattended_denied"), "", "unattended")
		return false
	}
	answers := func(ctl Control) bool {
		return ctl.Kind == ControlStop || ctl.Kind == ControlApprove && ctl.ApprovalID == id
	}
	for {
		for _, ctl := range r.controls.take(answers) {
			if ctl.Kind == ControlStop {
				resolve(event.ApproveDeny, "", "", "stop")
				return true
			}
			switch ctl.Decision {
			case event.ApproveOnce:
			case event.ApproveRun:
				r.st.AllowedTools = append(r.st.AllowedTools, c.Name)
			case event.ApproveAlways:
				if err := r.setup.Policy.AllowAlways(c.prep.Tool, ctl.Pattern); err != nil {
					r.guard(event.GuardApproval, event.ActionWarn, i18n.T("agent.approval_not_saved", i18n.Clause(err.Error())))
				}
			case event.ApproveDeny:
			default:
				continue // not a decision: keep waiting for one
			}
			resolve(ctl.Decision, ctl.Reason, ctl.Pattern, "user")
			return false
		}
		select {
		case <-r.controls.arrived:
		case <-ctx.Done():
			resolve(event.ApproveDeny, "", "", "stop")
			return true
		}
	}
}

// inBoth is t in each language ("en", "zh-CN"), or nil when there is no t.
func inBoth(t i18n.Text) map[string]string {
	if t.IsZero() {
		return nil
	}
	return map[string]string{string(i18n.EN): t.In(i18n.EN), string(i18n.ZH): t.In(i18n.ZH)}
}

// deniedMessage is what the model reads of a denial: the person's reason
// as they wrote it, its own full stop kept ("Not now." is not "Not now..").
func deniedMessage(by, reason string) string {
	msg := "the user denied this call"
	if by == "unattended" {
		msg = "this call needs a person's approval and no one is there to give it"
	}
	if reason != "" && by != "unattended" {
		msg += ": " + reason
	}
	return i18n.Then(msg, "Do not retry it; find another way, or say in your answer what you could not do.")
}

// policyDeniedMessage is what the model reads of a call the policy denies,
// with the policy's reason in English.
func policyDeniedMessage(reason string) string {
	return "this call is not allowed by the user's policy (" + i18n.Clause(reason) + "). Do not retry it; find another way or say in your answer that it was not allowed."
}
