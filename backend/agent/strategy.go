package agent

import (
	"context"

	"hermes/backend/contextmgr"
	"hermes/backend/event"
)

// Strategy is how a run works.
type Strategy string

const (
	// StrategyReact acts and observes, turn by turn.
	StrategyReact Strategy = "react"
	// StrategyPlan writes a plan before acting, checks each step's results
	// against its acceptance criteria, replans when a result contradicts
	// the plan, and checks the answer (steps, failed calls, confidence)
	// before the run may end.
	StrategyPlan Strategy = "plan"
)

// Protocol is how the model calls tools.
type Protocol string

const (
	// ProtocolTools uses the API's function calling.
	ProtocolTools Protocol = "tools"
	// ProtocolJSON has the model write {thought, action, action_input,
	// finished} in its reply, for local models without tool calls.
	ProtocolJSON Protocol = "json"
)

// DefaultConfidence is the confidence an answer needs under the plan strategy.
const DefaultConfidence = 0.8

// Temperatures are the sampling temperatures of each stage's requests.
// Answer is used for the turns after every required step has passed, when
// what is left is wording the answer, and for a message answered directly.
type Temperatures struct {
	Route, Plan, Decide, Evaluate, Answer float32
}

// temperature kinds, one per field of Temperatures.
type tempKind int

const (
	tempRoute tempKind = iota
	tempPlan
	tempDecide
	tempEvaluate
	tempAnswer
)

// temperature is the temperature to send for kind, nil when none is set.
func (r *Run) temperature(kind tempKind) *float32 {
	t := r.setup.Temperatures
	if t == nil {
		return nil
	}
	v := [...]float32{t.Route, t.Plan, t.Decide, t.Evaluate, t.Answer}[kind]
	return &v
}

// topP is the top_p to send for kind, nil when none is set.
func (r *Run) topP(kind tempKind) *float32 {
	t := r.setup.TopP
	if t == nil {
		return nil
	}
	v := [...]float32{t.Route, t.Plan, t.Decide, t.Evaluate, t.Answer}[kind]
	if v == 0 {
		return nil
	}
	return &v
}

// planned reports whether the run works to a plan: the plan strategy, and
// a plan was made.
func (r *Run) planned() bool { return r.st.Strategy == StrategyPlan && r.st.Plan != nil }

func (r *Run) jsonProtocol() bool { return r.setup.Protocol == ProtocolJSON }

func (r *Run) confidence() float64 {
	if r.setup.Confidence > 0 {
		return r.setup.Confidence
	}
	return DefaultConfidence
}

// intake routes a new run and, under the plan strategy, plans it. A
// cancelled context leaves the rest to the loop, which ends the run at
// once; an interrupted plan is made again on resume.
func (r *Run) intake(ctx context.Context) {
	// A task too large for the window is refused by the first iteration,
	// with the reason; the stages would only fail on it before.
	if r.fits(r.builder.Scale(contextmgr.Estimate(r.st.Task)+contextmgr.Estimate(r.st.Instr))) != nil {
		return
	}
	if r.setup.Route && len(r.turns) == 0 {
		r.stage = event.StageIntake
		if r.route(ctx) {
			// A task of a call or two is done as react does it; its answer
			// still passes the completion check.
			r.st.Planned = true
			return
		}
	}
	if r.st.Strategy == StrategyPlan && r.st.Route != event.RouteDirect && ctx.Err() == nil {
		r.stage = event.StagePlanning
		r.plan(ctx)
	}
}
