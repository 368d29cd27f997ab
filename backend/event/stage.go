package event

import "hermes/backend/llm"

// The stages of a run. Events whose type implies a stage (plan.created is
// planning, tool.finished is acting) do not carry one; the events that can
// happen in more than one stage (context.built, model.retried,
// model.decided, guard.tripped) carry it in a stage field.
const (
	StageIntake     = "intake"     // routing: answered directly, or the loop
	StagePlanning   = "planning"   // the plan is written or revised
	StageDeciding   = "deciding"   // the model chooses the next calls or answers
	StageActing     = "acting"     // tools run
	StageEvaluating = "evaluating" // a step's results are checked against its acceptance criteria
	StageMemory     = "memory"     // long-term memory is written back
	StageCompletion = "completion" // the answer is checked: steps passed, no failed call, confidence
)

// Routes a message can take at intake.
const (
	RouteDirect = "direct" // answered without tools, in one turn
	RouteLoop   = "loop"   // the agent loop
)

// RouteDecidedData says how a run's task was routed: by rules (By "rules")
// or by a cheap classification call (By "model", with its usage).
type RouteDecidedData struct {
	Route     string    `json:"route"`
	By        string    `json:"by"`
	Reason    string    `json:"reason"`
	Usage     llm.Usage `json:"usage,omitzero"`
	LatencyMS int64     `json:"latency_ms,omitempty"`
	// Calls is the model's estimate of the tool calls a loop task needs;
	// under the plan strategy a task of one or two is not planned
	// (SkipPlan).
	Calls    int  `json:"calls,omitempty"`
	SkipPlan bool `json:"skip_plan,omitempty"`
}

// Step statuses of a plan.
const (
	StepPending = "pending"
	StepPassed  = "passed"
	StepFailed  = "failed" // its last check failed; it is still the step being worked on
)

// PlanStep is one step of a plan. ID is its number, from 1; Required steps
// must pass before the run may end.
type PlanStep struct {
	ID          int      `json:"id"`
	Description string   `json:"description"`
	Tools       []string `json:"tools"`
	Acceptance  string   `json:"acceptance"`
	Required    bool     `json:"required"`
	Status      string   `json:"status"`
	// Reason is what the last check of the step said.
	Reason string `json:"reason,omitempty"`
}

// PlanCreatedData is the plan written before the first iteration. Attempts
// counts the requests it took (a reply that was not a valid plan, or had a
// step no tool can do, is sent back once with what to fix); Dropped lists
// the steps left out because no tool could do them even then.
type PlanCreatedData struct {
	Steps       []PlanStep `json:"steps"`
	Assumptions []string   `json:"assumptions,omitempty"`
	Attempts    int        `json:"attempts"`
	Repaired    bool       `json:"repaired,omitempty"`
	Dropped     []string   `json:"dropped,omitempty"`
	Usage       llm.Usage  `json:"usage"`
	LatencyMS   int64      `json:"latency_ms"`
}

// PlanRevisedData is a replan of the steps not yet passed, after a result
// contradicted the plan's assumptions. Steps is the whole new plan; Diff
// says what changed.
type PlanRevisedData struct {
	Reason      string     `json:"reason"`
	Steps       []PlanStep `json:"steps"`
	Assumptions []string   `json:"assumptions,omitempty"`
	Diff        PlanDiff   `json:"diff"`
	Usage       llm.Usage  `json:"usage"`
	LatencyMS   int64      `json:"latency_ms"`
}

// PlanDiff compares the remaining steps before and after a replan: steps
// are matched by description; Changed holds those whose tools or
// acceptance criteria changed, as they were and as they are.
type PlanDiff struct {
	Added   []PlanStep   `json:"added,omitempty"`
	Removed []PlanStep   `json:"removed,omitempty"`
	Changed []StepChange `json:"changed,omitempty"`
	Kept    []int        `json:"kept,omitempty"` // ids, in the new plan, of steps that did not change
}

// StepChange is one step of a replan that kept its description.
type StepChange struct {
	Before PlanStep `json:"before"`
	After  PlanStep `json:"after"`
}

// StepEvaluatedData is the check of one step's results against its
// acceptance criteria. A failed check goes back to deciding with Reason;
// ContradictsPlan triggers a replan. Unchecked is set when the verdict could
// not be read, and the model's own word was taken.
type StepEvaluatedData struct {
	Step            int    `json:"step"`
	Passed          bool   `json:"passed"`
	Reason          string `json:"reason"`
	ContradictsPlan bool   `json:"contradicts_plan,omitempty"`
	Unchecked       bool   `json:"unchecked,omitempty"`
	// InDecision marks a verdict the model gave in the _meta of its next
	// decision, without a call of its own (Usage is then zero).
	InDecision bool      `json:"in_decision,omitempty"`
	Calls      []string  `json:"calls"` // the ids of the calls checked
	NextStep   int       `json:"next_step,omitempty"`
	Usage      llm.Usage `json:"usage"`
	LatencyMS  int64     `json:"latency_ms"`
}

// CompletionCheckedData is the check of an answer before the run may end:
// the hard conditions (every required step passed, no unresolved failed
// call), then the model's confidence against the threshold. A check that
// fails sends the model back to work; its answer is kept as the best result.
type CompletionCheckedData struct {
	Passed bool `json:"passed"`
	// StepsPassed is how many of the StepsRequired passed (in logs of
	// before it was so, every step passed, optional ones too: readers
	// count StepsRequired less Missing).
	StepsPassed       int       `json:"steps_passed"`
	StepsRequired     int       `json:"steps_required"`
	Missing           []int     `json:"missing,omitempty"` // required steps not passed
	UnresolvedFailure string    `json:"unresolved_failure,omitempty"`
	Confidence        float64   `json:"confidence,omitempty"`
	Reason            string    `json:"reason,omitempty"`
	Threshold         float64   `json:"threshold"`
	Usage             llm.Usage `json:"usage,omitzero"`
	LatencyMS         int64     `json:"latency_ms,omitempty"`
}

// Where a value of a call's argument came from, as the model declares it.
const (
	FromUser     = "user"
	FromTool     = "tool"
	FromInferred = "inferred"
)

// QuestionAskedData asks the person a value the model guessed and that made
// a call fail, instead of letting it guess again. Question is the text to
// show; the other fields let a viewer word its own.
type QuestionAskedData struct {
	QuestionID string `json:"question_id"`
	CallID     string `json:"call_id"`
	Tool       string `json:"tool"`
	Argument   string `json:"argument"`
	Value      string `json:"value"`
	Failure    string `json:"failure"`
	Question   string `json:"question"`
}

// QuestionAnsweredData is the answer: by "user" (Answer holds it), "no_one"
// (no one can answer: the model is told not to guess), or "stop".
type QuestionAnsweredData struct {
	QuestionID string `json:"question_id"`
	Answer     string `json:"answer,omitempty"`
	By         string `json:"by"`
}
