// Package agent runs the loop: build the context, ask the model, validate and
// run its tool calls, check the gates, save a checkpoint; and publishes every
// step as events. It never talks to a UI.
package agent

import (
	"context"
	"sync/atomic"
	"time"

	"hermes/backend/contextmgr"
	"hermes/backend/event"
	"hermes/backend/i18n"
	"hermes/backend/llm"
	"hermes/backend/longterm"
	"hermes/backend/price"
	"hermes/backend/runlog"
	"hermes/backend/sandbox"
	"hermes/backend/store"
	"hermes/backend/toolbox"
)

// Model is what the loop asks; *llm.Client is one.
type Model interface {
	Chat(ctx context.Context, req llm.Request) (llm.Response, error)
}

// Checkpoints persist a run's state; *store.Store is one. A queued
// checkpoint is committed and synced in the background, so the loop never
// waits for the disk but where it needs a checkpoint durable: at a run's end.
type Checkpoints interface {
	QueueCheckpoint(c store.Checkpoint) *store.Saving
	LoadCheckpoint(runID string) (state []byte, turns [][]byte, err error)
}

// Limits are a run's gates and sizes; zero values take the defaults.
type Limits struct {
	MaxIterations    int
	TokenBudget      int // total tokens per run; 0 = none
	RepeatLimit      int // identical calls in a row that get an intervention; one more stops the run
	FailureLimit     int // failures in a row of one tool that stop the run
	NoProgressLimit  int // iterations in a row without a valid observation that stop the run
	ObservationLimit int // characters of a tool result the model sees whole
	ContextWindow    int
	ToolTimeout      time.Duration
	// RecentTurns are always sent whole; older turns are folded into the
	// summary once a request would pass CompressAt of the window (1 or more
	// never compresses).
	RecentTurns int
	CompressAt  float64
	// MemoryTokens caps the recalled long-term memory in each request;
	// MemoryFade is how long an unpinned memory lasts without being recalled.
	MemoryTokens int
	MemoryFade   time.Duration
}

func (l Limits) withDefaults() Limits {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&l.MaxIterations, 25)
	def(&l.RepeatLimit, 3)
	def(&l.FailureLimit, 3)
	def(&l.NoProgressLimit, 3)
	def(&l.ObservationLimit, 8000)
	def(&l.ContextWindow, 128000)
	if l.ToolTimeout <= 0 {
		l.ToolTimeout = 30 * time.Second
	}
	def(&l.RecentTurns, 8)
	if l.CompressAt <= 0 {
		l.CompressAt = 0.6
	}
	def(&l.MemoryTokens, 1000)
	if l.MemoryFade <= 0 {
		l.MemoryFade = 90 * 24 * time.Hour
	}
	return l
}

// Setup is what every run of a process shares: the home directory, the
// store, the bus that viewers watch, the model and the tools.
type Setup struct {
	Home      string
	Store     Checkpoints
	Bus       *event.Bus
	Redactor  *runlog.Redactor
	Model     Model
	ModelName string
	BaseURL   string
	Tools     *toolbox.Registry
	// Select, when set, chooses the tools offered to each run (with many
	// tools, only those relevant to the task); nil offers all of Tools.
	Select func(runID, task string) ToolSelection
	// Policy decides which calls need a person's approval; nil allows all.
	Policy toolbox.Policy
	// Unattended runs (the bot) have no one to ask: a call the policy would
	// ask about is denied.
	Unattended bool
	Limits     Limits
	Now        func() time.Time
	// Summarizer writes the rolling summary; nil means Model. SummaryModel
	// is the model it asks; "" means ModelName.
	Summarizer   Model
	SummaryModel string
	// LongTerm is the long-term memory runs recall and write (in the
	// namespace MemoryNamespace). nil keeps none, whatever Memory says.
	LongTerm *longterm.Memory
	// Memory is what the run does with the long-term memory LongTerm
	// keeps; "" leaves it alone.
	Memory MemoryUse
	// MemoryNamespace is whose memories the run recalls and writes: "" the
	// desktop's; the bot gives each chat user's conversation its own.
	MemoryNamespace string
	// Strategy is how a new run works; "" means StrategyReact. A resumed run
	// keeps the strategy it started with.
	Strategy Strategy
	// Protocol is how the model calls tools; "" means ProtocolTools.
	Protocol Protocol
	// Route answers a new run's message directly when it needs no tools.
	Route bool
	// Confidence is what the model's confidence in its answer must reach
	// for a run of the plan strategy to end; 0 means DefaultConfidence.
	Confidence float64
	// Temperatures of each stage's requests; nil sends none, so the
	// provider's default applies.
	Temperatures *Temperatures
	// TopP is each stage's top_p, in the shape of Temperatures; nil or a
	// stage's 0 sends none.
	TopP *Temperatures
	// Prices turns each model call's usage into money, for the cost in
	// model.decided and the run's totals; nil prices nothing.
	Prices price.Table
	// Sandbox is what the runs say of their commands' sandbox beyond
	// [tools]'s (the bot's: always on, the other users' workspaces hidden);
	// a run's own mode (Task.Sandbox) goes over its Mode.
	Sandbox toolbox.RunSandbox
	// SandboxStatus says how commands under a run's sandbox are confined,
	// for run.started; nil says nothing.
	SandboxStatus func(toolbox.RunSandbox) *event.SandboxData
}

// MemoryUse says what a run does with long-term memory. Its values are
// those of hermes.toml's [context] memory.
type MemoryUse string

const (
	// MemoryOn recalls memories for the task and writes what the run learnt.
	MemoryOn MemoryUse = "on"
	// MemoryRead recalls memories but writes none.
	MemoryRead MemoryUse = "read"
	// MemoryOff neither recalls nor writes.
	MemoryOff MemoryUse = "off"
)

// ToolSelection is the tools offered to one run; *toolbox.Selection is one.
type ToolSelection interface {
	Defs() []llm.ToolDef
	SavedTokens() int
	Close()
}

// Task is what a new run is asked to do. A fork also carries the
// conversation it starts from and the run it came from.
type Task struct {
	Text         string
	Instructions string
	Workspace    string
	Turns        []llm.Message
	ForkedFrom   *event.ForkRef
	// Origin is who asked, when not the person at this machine (the bot's
	// chat user); lists show it.
	Origin string
	// AskedBy is who that chat user is, when the platform could say.
	AskedBy *event.Asker
	// Sandbox is the sandbox mode of the run's commands when not [tools]'s
	// (hermes run --sandbox); it lasts through resumes.
	Sandbox sandbox.Mode
	// Memory is what the run does with long-term memory when not the
	// setup's (hermes run --memory, a fork's "off"); MemoryAsOf, when set,
	// lets it recall only the memories written before then (a fork's
	// source's start), never what its source or a later run wrote. Both
	// last through resumes.
	Memory     MemoryUse
	MemoryAsOf time.Time
}

// Result is how a run (or one leg of it) ended.
type Result struct {
	RunID    string
	Status   string
	Answer   string
	Verified bool
	// BestEffort marks an answer that never passed the completion check,
	// given back because the run reached a limit.
	BestEffort bool
	Error      string
	Totals     event.Totals
}

// Run is one run of the loop. Create it with NewRun or ResumeRun, then call
// Execute once.
type Run struct {
	setup    Setup
	limits   Limits
	sel      ToolSelection // nil: every tool of setup.Tools is offered
	log      *runlog.Writer
	emit     *event.Emitter
	controls *Controls
	builder  *contextmgr.Builder
	now      func() time.Time

	st      state         // the live state
	saved   state         // the state at the last checkpoint
	turns   []llm.Message // the conversation after the task anchor
	resumed bool
	// saving is the last checkpoint queued, durable once it is done.
	saving *store.Saving

	// injected holds instructions given while a decision's calls were
	// pending; they enter the conversation after the calls' results.
	injected []string

	// sentTurns and the sent layers say what the last context.built
	// carried, so the next one carries only what is new.
	sentTurns                           int
	sentAnchor, sentSummary, sentMemory string
	// lastTokens is the size of the last request, as the provider counts.
	lastTokens int
	// preview is what ContextPreview reads: the context as of the last
	// checkpoint, shared with other goroutines.
	preview atomic.Pointer[previewSnapshot]

	// legStart is when this process took the run up; priorMS is the time
	// earlier legs (before a stop or crash) spent on it.
	legStart time.Time
	priorMS  int64

	// stage is the stage the run is in, which guard.tripped reports.
	stage string
	// metaDefs caches the tool schemas with the decision's _meta added, and
	// goal the topic words drift is judged against.
	metaDefs map[string]metaDef
	goal     goalWords
}

// ID is the run's id.
func (r *Run) ID() string { return r.st.RunID }

// Controls is the run's control queue.
func (r *Run) Controls() *Controls { return r.controls }

// LogPath is the run's event log.
func (r *Run) LogPath() string { return r.log.Path() }

// NewRun creates a run of task: its id, its log and its emitter. Sinks see
// every event after the log, in seq order.
func NewRun(s Setup, t Task, sinks ...event.Sink) (*Run, error) {
	r := newRun(s)
	started := r.now()
	r.st = state{
		V:          stateVersion,
		RunID:      runlog.NewRunID(started),
		Task:       t.Text,
		Instr:      t.Instructions,
		Workspace:  t.Workspace,
		Status:     event.StatusRunning,
		ForkedFrom: t.ForkedFrom,
		Origin:     t.Origin,
		AskedBy:    t.AskedBy,
		Sandbox:    string(t.Sandbox),
		Memory:     t.Memory,
		MemoryAsOf: t.MemoryAsOf,
		Strategy:   s.Strategy,
		Model:      s.ModelName,
		BaseURL:    s.BaseURL,
	}
	r.turns = append([]llm.Message(nil), t.Turns...)
	w, err := runlog.Create(s.Home, r.st.RunID, started)
	if err != nil {
		return nil, err
	}
	r.st.LogPath = w.Path()
	r.attach(w, 0, sinks)
	return r, nil
}

func newRun(s Setup) *Run {
	now := s.Now
	if now == nil {
		now = time.Now
	}
	limits := s.Limits.withDefaults()
	return &Run{
		setup:    s,
		limits:   limits,
		controls: NewControls(),
		builder:  contextmgr.NewBuilder(limits.ContextWindow),
		now:      now,
	}
}

func (r *Run) attach(w *runlog.Writer, lastSeq int64, sinks []event.Sink) {
	r.log = w
	// The run's summary is kept beside its checkpoints, so lists need not
	// read the log.
	if sums, ok := r.setup.Store.(runlog.SummaryStore); ok {
		w.KeepSummary(sums)
	}
	var redact func([]byte) []byte
	if r.setup.Redactor != nil {
		redact = r.setup.Redactor.Redact
	}
	r.emit = event.NewEmitter(r.st.RunID, event.EmitterOptions{
		LastSeq: lastSeq, Redact: redact, Bus: r.setup.Bus, Sinks: append([]event.Sink{w}, sinks...), Now: r.now,
	})
}

// Execute runs the loop until the run ends, and returns how it ended. The
// log is closed when it returns.
func (r *Run) Execute(ctx context.Context) Result {
	defer r.log.Close()
	if r.setup.Select != nil {
		r.sel = r.setup.Select(r.st.RunID, r.selectionText())
		defer r.sel.Close()
	}
	r.legStart = r.now()
	if r.resumed {
		r.publish(event.RunResumed, r.resumedData())
	} else {
		r.publish(event.RunStarted, event.RunStartedData{
			Task: r.st.Task, Instructions: r.st.Instr, Workspace: r.st.Workspace,
			Model: r.setup.ModelName, BaseURL: r.setup.BaseURL,
			MaxIterations: r.limits.MaxIterations, TokenBudget: r.limits.TokenBudget,
			Tools: r.setup.Tools.Names(), ForkedFrom: r.st.ForkedFrom, Origin: r.st.Origin,
			AskedBy: r.st.AskedBy, Sandbox: r.sandboxStatus(), Memory: r.memoryStatus(),
		})
	}
	if !r.resumed {
		r.recall()
		r.intake(ctx)
	}
	if err := r.checkpoint(); err != nil {
		return r.finish(outcome{status: event.StatusFailed, err: err.Error()})
	}
	for {
		if r.safePoint(ctx, event.PausedAtBoundary, nil) {
			return r.finish(outcome{status: event.StatusStopped, err: i18n.T("agent.stopped")})
		}
		if ctx.Err() != nil {
			return r.cancelled()
		}
		if out, done := r.gates(); done {
			return r.finish(out)
		}
		r.st.Iteration++
		out, done := r.iterate(ctx)
		if ctx.Err() != nil {
			return r.cancelled()
		}
		if err := r.checkpoint(); err != nil {
			return r.finish(outcome{status: event.StatusFailed, err: err.Error()})
		}
		if done {
			return r.finish(out)
		}
	}
}

// outcome is how the loop decided to end.
type outcome struct {
	status   string
	answer   string
	verified bool
	err      string
	// confidence and reason are the completion check's, under the plan strategy.
	confidence float64
	reason     string
}

// publish emits one event of the current iteration. A log that cannot be
// written is not worth stopping a run for mid-iteration; the checkpoint at
// the boundary flushes the log and fails the run if it still cannot.
func (r *Run) publish(t event.Type, payload any) {
	_, _ = r.emit.Emit(t, r.st.Iteration, payload)
}

func (r *Run) guard(name, action, message string, details ...string) {
	r.publish(event.GuardTripped, event.GuardTrippedData{Guard: name, Action: action, Message: message, Details: details, Stage: r.stage})
}

// finish closes this leg of the run with a checkpoint that records how it
// ended and run.finished.
func (r *Run) finish(out outcome) Result {
	r.st.Status = out.status
	r.st.Totals.DurationMS = r.elapsedMS()
	var data event.RunFinishedData
	if out.answer == "" && r.st.Best != "" && reachedLimit(out.status) {
		out.answer, data.BestEffort = r.st.Best, true
	}
	data.Status, data.Answer, data.Verified, data.Error, data.Totals = out.status, out.answer, out.verified, out.err, r.st.Totals
	data.Confidence, data.ConfidenceReason = out.confidence, out.reason
	if out.status != event.StatusFinished {
		data.Resume = "hermes resume " + r.st.RunID
	} else {
		r.stage = event.StageMemory
		r.remember(out.answer, out.verified)
	}
	r.stage = event.StageCompletion
	// The end is saved before run.finished, so that a failure to save it is
	// told while the stream is open: run.finished is always a leg's last
	// event. The run has ended either way; a resume starts from the
	// checkpoint before.
	if err := r.saveDurable(); err != nil {
		r.guard(event.GuardCheckpointFail, event.ActionWarn, err.Error())
	}
	r.publish(event.RunFinished, data)
	// This save only moves the checkpoint's log offset past run.finished.
	// If it fails, a resume cuts the log back to just before run.finished,
	// as after a crash, which it handles; nothing may follow run.finished to
	// say so. It is waited for all the same: the log is closed after this.
	_ = r.saveDurable()
	return Result{
		RunID: r.st.RunID, Status: out.status, Answer: out.answer, Verified: out.verified,
		BestEffort: data.BestEffort, Error: out.err, Totals: r.st.Totals,
	}
}

// reachedLimit reports whether a run ended on a limit (iterations, budget,
// a guard), after which its best answer so far is given back.
func reachedLimit(status string) bool {
	return status == event.StatusMaxIterations || status == event.StatusBudget || status == event.StatusGuard
}

// cancelled ends a run whose context was cancelled mid-iteration: the
// partial iteration's events stay in the log, but the state to resume from
// is the last checkpoint's, so the iteration is done again on resume.
func (r *Run) cancelled() Result {
	r.st = r.saved
	r.st.Guards = r.saved.Guards.clone()
	r.st.Context = r.saved.Context.Clone()
	r.st.Plan = r.saved.Plan.clone()
	r.turns = r.turns[:r.saved.Turns]
	r.builder.Reset()
	return r.finish(outcome{status: event.StatusStopped, err: i18n.T("agent.cancelled")})
}

func (r *Run) elapsedMS() int64 { return r.priorMS + r.now().Sub(r.legStart).Milliseconds() }

// selectionText is what the run's tools are chosen by: its task, its
// standing instructions, and the tools its conversation (a fork's or a
// resumed run's) already called, whose skills it keeps.
func (r *Run) selectionText() string {
	text := r.st.Task
	if r.st.Instr != "" {
		text += "\n" + r.st.Instr
	}
	for _, m := range r.turns {
		for _, c := range m.ToolCalls {
			text += "\n" + c.Name
		}
	}
	return text
}

// toolDefs are the tool schemas sent with the next request, and the schema
// tokens that leaving the others out saves.
func (r *Run) toolDefs() ([]llm.ToolDef, int) {
	if r.sel == nil {
		return r.setup.Tools.Defs(), 0
	}
	return r.sel.Defs(), r.sel.SavedTokens()
}
