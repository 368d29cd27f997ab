package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"hermes/backend/event"
	"hermes/backend/i18n"
)

// Plan sizes: the model is asked for 3 to 6 steps; more are sent back to be
// merged, and a run replans at most maxReplans times.
const (
	maxSteps   = 6
	maxReplans = 3
)

// planState is the plan strategy's plan, saved with each checkpoint.
type planState struct {
	Steps       []event.PlanStep `json:"steps"`
	Assumptions []string         `json:"assumptions,omitempty"`
	// Since is the first turn of the current step's evidence: the turns
	// since the last check.
	Since   int `json:"since"`
	Replans int `json:"replans,omitempty"`
	// Checking is the step a decision finished whose verdict the next
	// decision gives; Eager is set once a decision left it out, and the
	// evaluator checks every step from then on.
	Checking int  `json:"checking,omitempty"`
	Eager    bool `json:"eager,omitempty"`
}

// checking is the step waiting for its verdict, 0 when none is (a nil
// plan waits for none).
func (p *planState) checking() int {
	if p == nil {
		return 0
	}
	if s := p.step(p.Checking); s != nil && s.Status != event.StepPassed {
		return s.ID
	}
	return 0
}

func (p *planState) clone() *planState {
	if p == nil {
		return nil
	}
	c := *p
	c.Steps = slices.Clone(p.Steps)
	for i := range c.Steps {
		c.Steps[i].Tools = slices.Clone(p.Steps[i].Tools)
	}
	c.Assumptions = slices.Clone(p.Assumptions)
	return &c
}

// current is the first step not yet passed, nil when all have passed.
func (p *planState) current() *event.PlanStep {
	for i := range p.Steps {
		if p.Steps[i].Status != event.StepPassed {
			return &p.Steps[i]
		}
	}
	return nil
}

// next is the step to work on: the current one, or the one after it while
// the current one waits for its verdict; nil when none is left.
func (p *planState) next() *event.PlanStep {
	for i := range p.Steps {
		if s := &p.Steps[i]; s.Status != event.StepPassed && s.ID != p.checking() {
			return s
		}
	}
	return nil
}

func (p *planState) step(id int) *event.PlanStep {
	if id < 1 || id > len(p.Steps) {
		return nil
	}
	return &p.Steps[id-1]
}

// missing lists the required steps not yet passed.
func (p *planState) missing() []int {
	var ids []int
	for _, s := range p.Steps {
		if s.Required && s.Status != event.StepPassed {
			ids = append(ids, s.ID)
		}
	}
	return ids
}

// passed is how many steps passed, optional ones too.
func (p *planState) passed() int {
	n := 0
	for _, s := range p.Steps {
		if s.Status == event.StepPassed {
			n++
		}
	}
	return n
}

// requiredPassed is how many required steps passed: what the completion
// check counts against required.
func (p *planState) requiredPassed() int { return p.required() - len(p.missing()) }

func (p *planState) required() int {
	n := 0
	for _, s := range p.Steps {
		if s.Required {
			n++
		}
	}
	return n
}

// planReply is the JSON a plan or a replan is written in.
type planReply struct {
	Assumptions []string `json:"assumptions"`
	Steps       []struct {
		Description string   `json:"description"`
		Tools       []string `json:"tools"`
		Acceptance  string   `json:"acceptance"`
		Required    *bool    `json:"required"`
	} `json:"steps"`
}

// readPlan decodes a plan reply into steps numbered from first. It returns
// what the model must fix, or "" when the plan is usable. On the last
// attempt, steps that no tool can do are left out (listed in dropped)
// rather than failing the plan.
func (r *Run) readPlan(raw []byte, last bool, first int) (steps []event.PlanStep, assumptions, dropped []string, problem string) {
	var reply planReply
	if err := json.Unmarshal(raw, &reply); err != nil {
		return nil, nil, nil, "The object does not have the plan's shape (" + err.Error() + ")."
	}
	if len(reply.Steps) == 0 {
		return nil, nil, nil, `The plan has no steps: give "steps", a list of 3 to 6 steps.`
	}
	if len(reply.Steps) > maxSteps && !last {
		return nil, nil, nil, fmt.Sprintf("The plan has %d steps; merge them into at most %d.", len(reply.Steps), maxSteps)
	}
	for _, s := range reply.Steps {
		var tools []string
		for _, t := range s.Tools {
			if _, ok := r.setup.Tools.Get(t); ok {
				tools = append(tools, t)
			}
		}
		if len(tools) == 0 || strings.TrimSpace(s.Description) == "" {
			if !last {
				return nil, nil, nil, fmt.Sprintf("The step %q names no tool you have (it names %v). Split it into steps that each use some of these tools: %s. Do not add a step for the final answer.",
					s.Description, s.Tools, strings.Join(r.setup.Tools.Names(), ", "))
			}
			dropped = append(dropped, s.Description)
			continue
		}
		steps = append(steps, event.PlanStep{
			ID: first + len(steps), Description: strings.TrimSpace(s.Description), Tools: tools,
			Acceptance: strings.TrimSpace(s.Acceptance), Required: s.Required == nil || *s.Required, Status: event.StepPending,
		})
	}
	if len(steps) == 0 {
		return nil, nil, dropped, "No step of the plan can be done with the tools you have."
	}
	return steps, reply.Assumptions, dropped, ""
}

// plan writes the run's plan before its first iteration. Without a usable
// plan the run goes on as react does, and a guard says why.
func (r *Run) plan(ctx context.Context) {
	var steps []event.PlanStep
	var assumptions, dropped []string
	rep, err := r.stageCall(ctx, tempPlan, planPrompt(r.planTools()), taskMessage(r.st.Task, r.st.Instr, r.st.Context.Memory),
		func(raw []byte, last bool) string {
			var problem string
			steps, assumptions, dropped, problem = r.readPlan(raw, last, 1)
			return problem
		})
	if ctx.Err() != nil {
		return
	}
	r.st.Planned = true
	if err != nil {
		r.guard(event.GuardPlan, event.ActionWarn, i18n.T("agent.guard.no_plan", i18n.Clause(err.Error())))
		return
	}
	r.st.Plan = &planState{Steps: steps, Assumptions: assumptions, Since: len(r.turns)}
	r.publish(event.PlanCreated, event.PlanCreatedData{
		Steps: slices.Clone(steps), Assumptions: assumptions, Attempts: rep.attempts, Repaired: rep.repaired,
		Dropped: dropped, Usage: rep.usage, LatencyMS: rep.latencyMS(),
	})
	if len(dropped) > 0 {
		r.guard(event.GuardPlan, event.ActionWarn, i18n.T("agent.guard.plan_dropped", strings.Join(dropped, "; ")))
	}
}

// replan replaces the steps not yet passed after a result contradicted
// the plan. It reports whether the plan was revised.
func (r *Run) replan(ctx context.Context, reason, evidence string) bool {
	p := r.st.Plan
	if p.Replans >= maxReplans {
		return false
	}
	r.stage = event.StagePlanning
	kept := p.passed()
	var steps []event.PlanStep
	var assumptions []string
	rep, err := r.stageCall(ctx, tempPlan, planPrompt(r.planTools()), replanMessage(r.st.Task, r.st.Instr, p, reason, evidence),
		func(raw []byte, last bool) string {
			var problem string
			steps, assumptions, _, problem = r.readPlan(raw, last, kept+1)
			return problem
		})
	if err != nil {
		if ctx.Err() == nil {
			r.guard(event.GuardPlan, event.ActionWarn, i18n.T("agent.guard.no_replan", i18n.Clause(err.Error())))
		}
		return false
	}
	var before []event.PlanStep
	var passed []event.PlanStep
	for _, s := range p.Steps {
		if s.Status == event.StepPassed {
			passed = append(passed, s)
		} else {
			before = append(before, s)
		}
	}
	p.Steps = slices.Concat(passed, steps)
	for i := range p.Steps {
		p.Steps[i].ID = i + 1
	}
	if len(assumptions) > 0 {
		p.Assumptions = assumptions
	}
	p.Replans++
	r.publish(event.PlanRevised, event.PlanRevisedData{
		Reason: reason, Steps: slices.Clone(p.Steps), Assumptions: p.Assumptions,
		Diff: diffSteps(before, p.Steps[len(passed):]), Usage: rep.usage, LatencyMS: rep.latencyMS(),
	})
	return true
}

// diffSteps compares the remaining steps of a plan before and after a
// replan, matching steps by their description.
func diffSteps(before, after []event.PlanStep) event.PlanDiff {
	key := func(s event.PlanStep) string {
		return strings.ToLower(strings.Join(strings.Fields(s.Description), " "))
	}
	old := map[string]event.PlanStep{}
	for _, s := range before {
		old[key(s)] = s
	}
	var d event.PlanDiff
	for _, s := range after {
		b, ok := old[key(s)]
		switch {
		case !ok:
			d.Added = append(d.Added, s)
		case slices.Equal(b.Tools, s.Tools) && b.Acceptance == s.Acceptance:
			d.Kept = append(d.Kept, s.ID)
		default:
			d.Changed = append(d.Changed, event.StepChange{Before: b, After: s})
		}
		delete(old, key(s))
	}
	for _, s := range before {
		if _, gone := old[key(s)]; gone {
			d.Removed = append(d.Removed, s)
		}
	}
	return d
}

// planTools lists the tools a plan may use, each with the first sentence
// of its description.
func (r *Run) planTools() string {
	defs, _ := r.toolDefs()
	var b strings.Builder
	for _, d := range defs {
		desc, _, _ := strings.Cut(d.Description, ". ")
		fmt.Fprintf(&b, "- %s: %s\n", d.Name, strings.TrimSuffix(desc, "."))
	}
	return b.String()
}

// planText is the plan as the model sees it in the task anchor.
func planText(p *planState) string {
	var b strings.Builder
	b.WriteString("Plan (in order):")
	cur := p.next()
	for _, s := range p.Steps {
		mark := "[pending]"
		switch {
		case s.Status == event.StepPassed:
			mark = "[passed]"
		case s.ID == p.checking():
			mark = checkDue
		case cur != nil && s.ID == cur.ID && s.Status == event.StepFailed:
			mark = "[current; its last check failed: " + s.Reason + "]"
		case cur != nil && s.ID == cur.ID:
			mark = "[current]"
		}
		opt := ""
		if !s.Required {
			opt = " (optional)"
		}
		switch mark {
		case "[passed]", "[pending]":
			// Only the steps at hand need their tools and criteria.
			fmt.Fprintf(&b, "\n%d. %s %s%s", s.ID, mark, s.Description, opt)
			continue
		case checkDue:
			// A check needs the criteria only.
			fmt.Fprintf(&b, "\n%d. %s %s%s (done when: %s)", s.ID, mark, s.Description, opt, s.Acceptance)
			continue
		}
		fmt.Fprintf(&b, "\n%d. %s %s%s (tools: %s; done when: %s)", s.ID, mark, s.Description, opt, strings.Join(s.Tools, ", "), s.Acceptance)
	}
	if len(p.Assumptions) > 0 {
		b.WriteString("\nAssumptions: " + strings.Join(p.Assumptions, "; "))
	}
	switch {
	case p.checking() > 0 && cur == nil:
		// No step is left for a call to serve.
		b.WriteString("\nEvery other step has passed: give your final answer.")
		return b.String()
	case cur == nil:
		b.WriteString("\nEvery step has passed: give your final answer.")
		return b.String()
	}
	b.WriteString("\n" + metaProtocol)
	return b.String()
}
