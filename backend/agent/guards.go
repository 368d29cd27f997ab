package agent

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"hermes/backend/event"
	"hermes/backend/i18n"
)

// guardState is what the guards remember across iterations; it is part of
// the checkpoint, so a resumed run keeps counting where it stopped.
type guardState struct {
	LastCall   string `json:"last_call,omitempty"` // name and canonical arguments of the last valid call
	Repeats    int    `json:"repeats,omitempty"`
	NoProgress int    `json:"no_progress,omitempty"`
	// Failures lists, per tool, its failed attempts since its last success.
	Failures map[string][]string `json:"failures,omitempty"`
	// LastFailure is the failure of the iteration's last call, if it failed;
	// a final answer given after it is checked once more.
	LastFailure   string `json:"last_failure,omitempty"`
	VerifyGranted bool   `json:"verify_granted,omitempty"`
	// Unresolved holds, per tool, how its last call went wrong (denied,
	// refused or failed) when the tool has not succeeded since: an answer
	// given while any is held is not verified.
	Unresolved map[string]string `json:"unresolved,omitempty"`
}

func (g *guardState) clone() guardState {
	c := *g
	if g.Failures != nil {
		c.Failures = make(map[string][]string, len(g.Failures))
		for k, v := range g.Failures {
			c.Failures[k] = append([]string(nil), v...)
		}
	}
	c.Unresolved = maps.Clone(g.Unresolved)
	return c
}

// gates checks, before an iteration starts, the limits that end a run.
func (r *Run) gates() (outcome, bool) {
	if r.st.Iteration >= r.limits.MaxIterations {
		msg := i18n.T("agent.guard.max_iterations", r.limits.MaxIterations)
		r.guard(event.GuardMaxIterations, event.ActionStop, msg)
		return outcome{status: event.StatusMaxIterations, err: msg}, true
	}
	if b := r.limits.TokenBudget; b > 0 && r.st.Totals.TotalTokens >= b {
		msg := i18n.T("agent.guard.token_budget", r.st.Totals.TotalTokens, b)
		r.guard(event.GuardTokenBudget, event.ActionStop, msg)
		return outcome{status: event.StatusBudget, err: msg}, true
	}
	return outcome{}, false
}

// noteRepeat counts identical calls in a row. It returns warn when the call
// reaches the limit (the model gets an intervention) and stop past it.
func (r *Run) noteRepeat(key string) (warn, stop bool) {
	g := &r.st.Guards
	if key == g.LastCall {
		g.Repeats++
	} else {
		g.LastCall, g.Repeats = key, 1
	}
	return g.Repeats == r.limits.RepeatLimit, g.Repeats > r.limits.RepeatLimit
}

// noteCall records a call's outcome for the failure guard and returns the
// attempts to report when the tool has now failed too often in a row.
func (r *Run) noteCall(name, args string, failure string) []string {
	g := &r.st.Guards
	if failure == "" {
		delete(g.Failures, name)
		return nil
	}
	if g.Failures == nil {
		g.Failures = map[string][]string{}
	}
	g.Failures[name] = append(g.Failures[name], fmt.Sprintf("%s %s: %s", name, args, failure))
	if len(g.Failures[name]) >= r.limits.FailureLimit {
		return g.Failures[name]
	}
	return nil
}

// noteProgress counts iterations that observed nothing valid and reports
// whether the run must stop for it.
func (r *Run) noteProgress(observed bool) bool {
	g := &r.st.Guards
	if observed {
		g.NoProgress = 0
		return false
	}
	g.NoProgress++
	return g.NoProgress >= r.limits.NoProgressLimit
}

// How a call went wrong, as Unresolved records it.
const (
	callDenied  = "denied"
	callRefused = "refused"
	callFailed  = "failed"
)

// noteOutcome records whether a call of a known tool went wrong, or
// resolves what went wrong with the tool before. A call skipped by a stop
// or a guard says nothing about the tool.
func (r *Run) noteOutcome(c *call) {
	if _, known := r.setup.Tools.Get(c.Name); !known || c.skipped != "" {
		return
	}
	g := &r.st.Guards
	var how string
	switch {
	case c.denied != "":
		how = callDenied
	case !c.valid():
		how = callRefused
	case c.failure != "":
		how = callFailed
	default:
		delete(g.Unresolved, c.Name)
		return
	}
	if g.Unresolved == nil {
		g.Unresolved = map[string]string{}
	}
	g.Unresolved[c.Name] = how
}

// vouch reports whether the calls leave an answer verifiable: the last
// call did not fail, and no tool's denied, refused or failed call still
// waits for the tool to succeed. When they do not, it says why in a guard.
func (r *Run) vouch() bool {
	g := &r.st.Guards
	if g.LastFailure != "" {
		r.guard(event.GuardUnverified, event.ActionWarn, i18n.T("agent.guard.unverified", g.LastFailure))
		return false
	}
	if len(g.Unresolved) == 0 {
		return true
	}
	open := make([]string, 0, len(g.Unresolved))
	for _, name := range slices.Sorted(maps.Keys(g.Unresolved)) {
		open = append(open, name+" ("+g.Unresolved[name]+")")
	}
	r.guard(event.GuardUnverified, event.ActionWarn, i18n.T("agent.guard.unresolved", strings.Join(open, ", ")), open...)
	return false
}
