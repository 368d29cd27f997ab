package event

import (
	"encoding/json"
	"time"

	"hermes/backend/llm"
)

// Run statuses, as carried by run.finished and shown in run lists.
const (
	StatusRunning       = "running"
	StatusFinished      = "finished"
	StatusMaxIterations = "max_iterations"
	StatusGuard         = "guard"
	StatusBudget        = "budget"
	StatusStopped       = "stopped"
	StatusFailed        = "failed"
)

// RunStartedData opens a run. It never holds a secret: the model's key is
// not part of it.
type RunStartedData struct {
	Task          string   `json:"task"`
	Instructions  string   `json:"instructions,omitempty"`
	Workspace     string   `json:"workspace"`
	Model         string   `json:"model"`
	BaseURL       string   `json:"base_url"`
	MaxIterations int      `json:"max_iterations"`
	TokenBudget   int      `json:"token_budget,omitempty"`
	Tools         []string `json:"tools"`
	// ForkedFrom links a run forked from iteration N of another run; its
	// conversation up to N was copied, so those tools were not run again.
	ForkedFrom *ForkRef `json:"forked_from,omitempty"`
	// Origin is who asked, when not the person at this machine: the bot's
	// chat user ("wecom/USER").
	Origin string `json:"origin,omitempty"`
	// AskedBy is who that chat user is, as the platform's contacts say;
	// absent when the platform has no contacts or could not say.
	AskedBy *Asker `json:"asked_by,omitempty"`
	// Sandbox is how the run's commands are confined; absent in runs
	// logged before there was one.
	Sandbox *SandboxData `json:"sandbox,omitempty"`
	// Memory is what the run does with long-term memory; absent when the
	// process keeps none, and in runs logged before it was said.
	Memory *MemoryUse `json:"memory,omitempty"`
}

// MemoryUse is what a run does with long-term memory.
type MemoryUse struct {
	// Mode is "on" (recall, and write what the run verified), "read"
	// (recall only) or "off" (neither).
	Mode string `json:"mode"`
	// AsOf, when set, is when the memory the run recalls stood: it recalls
	// only memories written before then (a fork: when its source started),
	// none that its source or a later run wrote.
	AsOf time.Time `json:"as_of,omitzero"`
}

// SandboxData is the OS sandbox a run's commands (execute_command,
// command skills) run in.
type SandboxData struct {
	// Mode is "workspace", "read-only" or "off".
	Mode string `json:"mode"`
	// Network says whether commands may reach the network.
	Network bool `json:"network,omitempty"`
	// Enforced says whether the OS confines them; when false, Why says why
	// not ("not sandboxed: …").
	Enforced bool `json:"enforced"`
	// How names the mechanisms ("Landlock ABI 7, seccomp").
	How string `json:"how,omitempty"`
	// Gaps are what this machine's sandbox cannot stop.
	Gaps []string `json:"gaps,omitempty"`
	Why  string   `json:"why,omitempty"`
}

// Asker is a chat user who gave a run its task: their id on the platform,
// their name and their departments' names, each absent when unknown.
type Asker struct {
	UserID      string   `json:"user_id"`
	Name        string   `json:"name,omitempty"`
	Departments []string `json:"departments,omitempty"`
}

// ForkRef names the run and iteration a run was forked from. A fork that
// was asked to use another model or endpoint than that run's carries the
// run's in FromModel and FromBaseURL (masked as in run.started).
type ForkRef struct {
	RunID       string `json:"run_id"`
	Iteration   int    `json:"iteration"`
	FromModel   string `json:"from_model,omitempty"`
	FromBaseURL string `json:"from_base_url,omitempty"`
}

// IterationStartedData marks the start of one model turn.
type IterationStartedData struct{}

// Layers are the token counts of one request's layers, named after the
// context's layers.
type Layers struct {
	System      int `json:"system"`
	TaskAnchor  int `json:"task_anchor"`
	Summary     int `json:"summary"`
	Memory      int `json:"memory"`
	Recent      int `json:"recent"`
	ToolResults int `json:"tool_results"`
	ToolSchemas int `json:"tool_schemas"`
}

// Total is the sum of all layers.
func (l Layers) Total() int {
	return l.System + l.TaskAnchor + l.Summary + l.Memory + l.Recent + l.ToolResults + l.ToolSchemas
}

// ContextBuiltData describes the request about to be sent. To keep logs
// linear in the run's length, Messages holds only the messages added since the
// previous context.built unless Full is set (the first request, and any
// request after the context was rewritten, as by compression).
type ContextBuiltData struct {
	Layers       Layers  `json:"layers"`
	Tokens       int     `json:"tokens"`
	Window       int     `json:"window"`
	BudgetShare  float64 `json:"budget_share"`
	Compressed   bool    `json:"compressed"`
	MessageCount int     `json:"message_count"`
	// Folded is how many messages of the conversation the summary covers:
	// the first message after the summary and memory layers is message Folded.
	Folded    int           `json:"folded,omitempty"`
	Full      bool          `json:"full"`
	Messages  []llm.Message `json:"messages"`
	ToolNames []string      `json:"tool_names"`
	// SchemasSaved is the schema tokens of the tools left out of this
	// request because they were not relevant to the task.
	SchemasSaved int `json:"schemas_saved,omitempty"`
	// Stage is the stage the request is for (StageDeciding, or StageIntake
	// for a message answered directly).
	Stage string `json:"stage,omitempty"`
	// Ratio is the provider's prompt tokens per token Hermes estimated for
	// the last request it reported on; the layers and tokens above are
	// Hermes's estimate scaled by it. Absent until a provider has reported.
	Ratio float64 `json:"ratio,omitempty"`
}

// ModelDeltaData carries streamed text, batched.
type ModelDeltaData struct {
	Text string `json:"text"`
}

// ModelReasoningData carries the model's streamed thinking, batched: what
// DeepSeek, GLM, Kimi and Qwen send as reasoning_content before the answer
// or the tool calls.
type ModelReasoningData struct {
	Text string `json:"text"`
}

// ModelRetriedData reports a transient model failure that is being retried.
type ModelRetriedData struct {
	Attempt int    `json:"attempt"`
	WaitMS  int64  `json:"wait_ms"`
	Error   string `json:"error"`
	Stage   string `json:"stage,omitempty"`
}

// DecidedCall is one tool call of a decision, after validation and repair.
type DecidedCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"` // as the model wrote them
	Repaired  bool   `json:"repaired,omitempty"`
	Valid     bool   `json:"valid"`
	Error     string `json:"error,omitempty"` // why the call was refused
	// Provenance says, for arguments that are IDs, paths or timestamps,
	// where the model took each value from (FromUser, FromTool, FromInferred).
	Provenance map[string]string `json:"provenance,omitempty"`
}

// ModelDecidedData is the model's decision for one turn.
type ModelDecidedData struct {
	Thought      string        `json:"thought,omitempty"`
	FinalAnswer  string        `json:"final_answer,omitempty"`
	ToolCalls    []DecidedCall `json:"tool_calls,omitempty"`
	FinishReason string        `json:"finish_reason,omitempty"`
	Usage        llm.Usage     `json:"usage"`
	LatencyMS    int64         `json:"latency_ms"`
	Attempts     int           `json:"attempts"`
	// Reasoning is the model's thinking before this decision, whole (as
	// the model.reasoning events streamed it), when it sent any.
	Reasoning string `json:"reasoning,omitempty"`
	// FirstTokenMS is the time from the request's start (as LatencyMS
	// counts it, retries included) to the first streamed piece of the
	// answer; absent when the answer was not streamed. LatencyMS minus it
	// is the time the answer streamed.
	FirstTokenMS int64 `json:"first_token_ms,omitempty"`
	// Cost is what the turn's usage cost at the price of the run's model
	// ([prices] in hermes.toml), in Currency; absent when the model has no
	// price, which is shown as unknown, never as 0.
	Cost     *float64 `json:"cost,omitempty"`
	Currency string   `json:"currency,omitempty"`
	// Spent is the Totals.StageTokens key the turn's usage counts under:
	// SpentDecide, or SpentAnswer once what is left is the answer.
	Spent string `json:"spent,omitempty"`
	// Stage is StageDeciding, or StageIntake for a message answered
	// directly. Under the plan strategy the decision also says which step
	// it serves, whether that step is finished with it ("continue" or
	// "finished"), and in one line how it serves the goal; Drift, when set,
	// is why it was flagged as drifting from the goal.
	Stage      string `json:"stage,omitempty"`
	Step       int    `json:"step,omitempty"`
	StepStatus string `json:"step_status,omitempty"`
	ServesGoal string `json:"serves_goal,omitempty"`
	Drift      string `json:"drift,omitempty"`
}

// ToolStartedData marks a tool call starting.
type ToolStartedData struct {
	CallID    string `json:"call_id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"` // the validated, canonical JSON
	Attempt   int    `json:"attempt"`
}

// ToolFinishedData is a tool call's outcome. Result is what the model sees;
// the full output, when it was cut, is under Artifact.
type ToolFinishedData struct {
	CallID     string `json:"call_id"`
	Name       string `json:"name"`
	OK         bool   `json:"ok"`
	Result     string `json:"result"`
	Size       int    `json:"size"`
	Artifact   string `json:"artifact,omitempty"`
	Error      string `json:"error,omitempty"`
	DurationMS int64  `json:"duration_ms"`
	Attempt    int    `json:"attempt"`
	// Sandbox is how the call's process ran, for a tool that started one.
	Sandbox *ToolSandbox `json:"sandbox,omitempty"`
}

// ToolSandbox is how a call's process ran: in the OS sandbox (Confined),
// outside it as the model asked and a person approved (Escaped), or
// unconfined because there is none (Why says why), and what it stopped.
type ToolSandbox struct {
	Confined bool      `json:"confined"`
	Escaped  bool      `json:"escaped,omitempty"`
	Why      string    `json:"why,omitempty"`
	Blocked  []Blocked `json:"blocked,omitempty"`
}

// Blocked is one thing the sandbox stopped: a "write", "read", "link" or
// "process" of a path, or a "network" or other "call".
type Blocked struct {
	Kind string `json:"kind"`
	What string `json:"what"`
	By   string `json:"by,omitempty"`
}

// Guards, as named in guard.tripped.
const (
	GuardMaxIterations  = "max_iterations"
	GuardRepeatedCall   = "repeated_call"
	GuardToolFailures   = "tool_failures"
	GuardNoProgress     = "no_progress"
	GuardTokenBudget    = "token_budget"
	GuardUnverified     = "unverified_answer"
	GuardInvalidCall    = "invalid_call"
	GuardCheckpointFail = "checkpoint_failed"
	GuardApproval       = "approval"
	// GuardSummary warns that folding old turns into the summary failed;
	// nothing was dropped and it is tried again later.
	GuardSummary = "summary_failed"
	// GuardPin warns that a pin named a message the run does not have.
	GuardPin = "pin"
	// GuardMemory warns that long-term memory could not be read or written;
	// the run goes on without it.
	GuardMemory = "memory"
	// GuardDrift warns that a decision does not serve the goal or its plan;
	// the model is told to return to the plan.
	GuardDrift = "drift"
	// GuardPlan warns that no usable plan could be made, or that steps no
	// tool can do were left out of it.
	GuardPlan = "plan"
	// GuardNearDuplicate warns when the model calls a tool on the same
	// target with barely changed arguments and learns nothing new, and
	// stops the run when it goes on.
	GuardNearDuplicate = "near_duplicate"
)

// LimitNearData says the run is close to a limit that ends it, and that
// the model was told so, to wrap up. Limit names the guard that will stop
// the run ("max_iterations"); Left counts what is left of it, the current
// iteration included; Max is the limit.
type LimitNearData struct {
	Limit string `json:"limit"`
	Left  int    `json:"left"`
	Max   int    `json:"max"`
}

// Guard actions: a warning lets the run go on, stop ends it.
const (
	ActionWarn = "warn"
	ActionStop = "stop"
)

// GuardTrippedData explains, in plain words, a guard that tripped.
type GuardTrippedData struct {
	Guard   string   `json:"guard"`
	Action  string   `json:"action"`
	Message string   `json:"message"`
	Details []string `json:"details,omitempty"`
	Stage   string   `json:"stage,omitempty"`
}

// Where a run pauses: between iterations, or after the model decided and
// before its calls run, when the calls' arguments can still be edited.
const (
	PausedAtBoundary = "boundary"
	PausedAtDecided  = "decided"
)

// RunPausedData and RunResumedData mark pauses and continuations. A run
// resumed from a checkpoint by another process carries FromCheckpoint, and
// the model and endpoint (masked as in run.started) it goes on with; when a
// person switched them at resume, FromModel and FromBaseURL are the ones
// the run had.
type RunPausedData struct {
	At           string        `json:"at"`
	PendingCalls []DecidedCall `json:"pending_calls,omitempty"`
}

// RunResumedData marks a continuation (see RunPausedData).
type RunResumedData struct {
	FromCheckpoint bool   `json:"from_checkpoint,omitempty"`
	Iteration      int    `json:"iteration,omitempty"`
	Model          string `json:"model,omitempty"`
	BaseURL        string `json:"base_url,omitempty"`
	FromModel      string `json:"from_model,omitempty"`
	FromBaseURL    string `json:"from_base_url,omitempty"`
}

// Switched reports whether the resume changed the run's model or endpoint.
func (d RunResumedData) Switched() bool { return d.FromModel != "" || d.FromBaseURL != "" }

// InstructionInjectedData is a one-off instruction added by the user.
type InstructionInjectedData struct {
	Text string `json:"text"`
}

// TaskEditedData records an edit of the task or standing instructions.
type TaskEditedData struct {
	OldTask         string `json:"old_task"`
	NewTask         string `json:"new_task"`
	OldInstructions string `json:"old_instructions,omitempty"`
	NewInstructions string `json:"new_instructions,omitempty"`
}

// CallEditedData records a person's edit of a decided call's arguments
// before it ran.
type CallEditedData struct {
	CallID       string `json:"call_id"`
	Name         string `json:"name"`
	OldArguments string `json:"old_arguments"`
	NewArguments string `json:"new_arguments"`
}

// Approval decisions.
const (
	ApproveOnce   = "allow_once"
	ApproveRun    = "allow_run"    // this tool, for the rest of the run
	ApproveAlways = "allow_always" // remembered in the policy, optionally for matching arguments only
	ApproveDeny   = "deny"
)

// ApprovalRequestedData asks whoever is watching to allow a call.
type ApprovalRequestedData struct {
	ApprovalID string `json:"approval_id"`
	CallID     string `json:"call_id"`
	Name       string `json:"name"`
	Arguments  string `json:"arguments"`
	Risk       string `json:"risk"`
	Reason     string `json:"reason"` // why it is asked: the risk level's policy or a sensitive pattern
	// ReasonIn is Reason in both languages ("en", "zh-CN"), for a reader
	// whose person reads another language than the run's process (a chat
	// user, a browser): each shows its language's and falls back to
	// Reason. Absent in older logs and for a reason the policy did not
	// word from its messages.
	ReasonIn map[string]string `json:"reason_in,omitempty"`
	// Escaping: the model asked to run this call outside the OS sandbox; a
	// person approves it each time ("allow for this run" and "always" do
	// not cover it).
	Escaping bool `json:"escaping,omitempty"`
	// Commands are an execute_command line's simple commands as written,
	// Risky what in it is asked whatever the rules say, and Patterns the
	// "always" patterns offered for it, one per command no rule covers
	// (an answer joins those it keeps with "; ").
	Commands []string `json:"commands,omitempty"`
	Risky    []string `json:"risky,omitempty"`
	Patterns []string `json:"patterns,omitempty"`
	// Change is what the call would change, when its tool can tell (a
	// vault edit: the notes, their properties, links, sections and lines),
	// so that the person approves the change, not only the arguments.
	Change json.RawMessage `json:"change,omitempty"`
}

// ApprovalResolvedData is the answer. Reason is a denial's reason, which the
// model receives.
type ApprovalResolvedData struct {
	ApprovalID string `json:"approval_id"`
	CallID     string `json:"call_id"`
	Decision   string `json:"decision"`
	Reason     string `json:"reason,omitempty"`
	Pattern    string `json:"pattern,omitempty"`
	By         string `json:"by,omitempty"` // "user", "policy", "stop", "unattended"
}

// CheckpointSavedData marks the state saved at the end of an iteration.
type CheckpointSavedData struct {
	Messages int `json:"messages"`
}

// Totals sums a run.
type Totals struct {
	Iterations       int   `json:"iterations"`
	PromptTokens     int   `json:"prompt_tokens"`
	CompletionTokens int   `json:"completion_tokens"`
	TotalTokens      int   `json:"total_tokens"`
	ToolCalls        int   `json:"tool_calls"`
	DurationMS       int64 `json:"duration_ms"`
	// ReasoningTokens is the part of CompletionTokens spent thinking, as
	// far as the provider reported it.
	ReasoningTokens int `json:"reasoning_tokens,omitempty"`
	// StageCalls are the model requests the stages made besides the
	// iterations: routing, planning, evaluating and the completion check.
	StageCalls int `json:"stage_calls,omitempty"`
	// StageTokens splits TotalTokens by what they were spent on: route,
	// plan, decide, evaluate (step checks and the completion check),
	// answer (turns once every step passed, direct answers) and summary.
	StageTokens map[string]int `json:"stage_tokens,omitempty"`
	// CachedTokens is the part of PromptTokens read from the provider's
	// prompt cache, as far as the provider reported it.
	CachedTokens int `json:"cached_tokens,omitempty"`
	// Cost is what every model call of the run cost (the stages' and the
	// summaries' too), in Currency, at the prices of [prices]; absent when
	// the run's model has no price.
	Cost     *float64 `json:"cost,omitempty"`
	Currency string   `json:"currency,omitempty"`
}

// Stage token keys of Totals.StageTokens, in the order they are shown.
const (
	SpentRoute    = "route"
	SpentPlan     = "plan"
	SpentDecide   = "decide"
	SpentEvaluate = "evaluate"
	SpentAnswer   = "answer"
	SpentSummary  = "summary"
)

// SpentOrder lists the stage token keys in the order they are shown.
var SpentOrder = []string{SpentRoute, SpentPlan, SpentDecide, SpentEvaluate, SpentAnswer, SpentSummary}

// RunFinishedData closes a run (or one leg of it, when it is resumed later).
type RunFinishedData struct {
	Status   string `json:"status"`
	Answer   string `json:"answer,omitempty"`
	Verified bool   `json:"verified"`
	Error    string `json:"error,omitempty"`
	Totals   Totals `json:"totals"`
	// Resume tells the user how to continue a run that can be resumed.
	Resume string `json:"resume,omitempty"`
	// BestEffort marks an answer that did not pass the completion check: the
	// run reached a limit, and this is the best answer it had given.
	BestEffort bool `json:"best_effort,omitempty"`
	// Confidence and ConfidenceReason are the model's own rating of a
	// finished answer under the plan strategy.
	Confidence       float64 `json:"confidence,omitempty"`
	ConfidenceReason string  `json:"confidence_reason,omitempty"`
}

// SummaryUpdatedData records a compression: the oldest turns of the
// conversation (messages From to To-1, counted from the first message after
// the task anchor) were folded into the rolling summary. EntitiesAdded are
// the numbers, dates, ids, paths and URLs of those turns that the new
// summary lost and that were added to the entity list kept with it. Usage
// is the summary call's, as the provider reported it (as model.decided's),
// so live token counts include the summaries.
type SummaryUpdatedData struct {
	Summary       string    `json:"summary"`
	Previous      string    `json:"previous,omitempty"`
	Progress      string    `json:"progress,omitempty"`
	From          int       `json:"from"`
	To            int       `json:"to"`
	TurnsFolded   int       `json:"turns_folded"`
	Entities      []string  `json:"entities,omitempty"`
	EntitiesAdded []string  `json:"entities_added,omitempty"`
	TokensBefore  int       `json:"tokens_before"`
	TokensAfter   int       `json:"tokens_after"`
	Model         string    `json:"model"`
	Usage         llm.Usage `json:"usage,omitzero"`
}

// ContextPinnedData records a person pinning a fact, or a message of the
// conversation by its index (as in SummaryUpdatedData), into the pinned
// layer, where it is never folded into the summary.
type ContextPinnedData struct {
	Fact    string `json:"fact,omitempty"`
	Message *int   `json:"message,omitempty"`
	Role    string `json:"role,omitempty"`
	Preview string `json:"preview,omitempty"`
}

// MemoryWrittenData lists the long-term memory entries a run wrote when it
// finished.
type MemoryWrittenData struct {
	Entries []MemoryRef `json:"entries"`
}

// MemoryRecalledData lists the long-term memory entries a new run was
// given in its memory layer, each with why it was recalled.
type MemoryRecalledData struct {
	Entries []MemoryRef `json:"entries"`
}

// MemoryRef is one long-term memory entry as events show it.
type MemoryRef struct {
	ID   uint64 `json:"id"`
	Kind string `json:"kind"`
	Text string `json:"text"`
	// Source is what in run RunID the entry came from: "task",
	// "instruction" (injected while it ran), "standing" (its standing
	// instructions) or "result"; "" for entries older than sources.
	Source string `json:"source,omitempty"`
	RunID  string `json:"run_id,omitempty"`
	// Created is when the entry was written.
	Created time.Time `json:"created,omitzero"`
	// Reason says why a recalled entry was recalled: "pinned",
	// "preference", or "match" with the task's Terms it holds, its BM25
	// Score and its Relevance to the task (the share, 0 to 1, of the score
	// of a memory holding every content word of the task).
	Reason    string   `json:"reason,omitempty"`
	Terms     []string `json:"terms,omitempty"`
	Score     float64  `json:"score,omitempty"`
	Relevance float64  `json:"relevance,omitempty"`
}
