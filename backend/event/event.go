// Package event defines the event stream of a run: the envelope every viewer
// reads, the payload of each event type, and the emitter that numbers them.
//
// A run's timeline is a pure fold of its events, so events are appended in
// seq order and never edited; the JSON form is versioned by V.
package event

import (
	"encoding/json"
	"fmt"
	"time"
)

// Version is the envelope version written into every event.
const Version = 1

// Type names an event. Types are extended, never renamed.
type Type string

// The types, each with its payload in payload.go (TypeData).
const (
	RunStarted          Type = "run.started"
	IterationStarted    Type = "iteration.started"
	ContextBuilt        Type = "context.built"
	ModelDelta          Type = "model.delta"
	ModelReasoning      Type = "model.reasoning"
	ModelRetried        Type = "model.retried"
	ModelDecided        Type = "model.decided"
	ToolStarted         Type = "tool.started"
	ToolFinished        Type = "tool.finished"
	GuardTripped        Type = "guard.tripped"
	LimitNear           Type = "limit.near"
	ApprovalRequested   Type = "approval.requested"
	ApprovalResolved    Type = "approval.resolved"
	RunPaused           Type = "run.paused"
	RunResumed          Type = "run.resumed"
	InstructionInjected Type = "instruction.injected"
	TaskEdited          Type = "task.edited"
	CallEdited          Type = "call.edited"
	SummaryUpdated      Type = "summary.updated"
	ContextPinned       Type = "context.pinned"
	MemoryWritten       Type = "memory.written"
	MemoryRecalled      Type = "memory.recalled"
	CheckpointSaved     Type = "checkpoint.saved"
	RunFinished         Type = "run.finished"

	// The stages of the plan strategy, routing and questions (stage.go).

	RouteDecided      Type = "route.decided"
	PlanCreated       Type = "plan.created"
	PlanRevised       Type = "plan.revised"
	StepEvaluated     Type = "step.evaluated"
	CompletionChecked Type = "completion.checked"
	QuestionAsked     Type = "question.asked"
	QuestionAnswered  Type = "question.answered"
)

// Droppable reports whether a slow viewer may miss an event of type t.
// Only streamed text and thinking are droppable: model.decided repeats
// both in full.
func (t Type) Droppable() bool { return t == ModelDelta || t == ModelReasoning }

// Event is the envelope of every event. Data holds the type's payload as
// JSON, so an event read back from a log is the same value that was written.
type Event struct {
	V         int             `json:"v"`
	RunID     string          `json:"run_id"`
	Seq       int64           `json:"seq"`
	Time      time.Time       `json:"time"`
	Iteration int             `json:"iteration"`
	Type      Type            `json:"type"`
	Data      json.RawMessage `json:"data"`
}

// Decode unmarshals the payload of e into a value of type T.
func Decode[T any](e Event) (T, error) {
	var v T
	if len(e.Data) == 0 {
		return v, nil
	}
	if err := json.Unmarshal(e.Data, &v); err != nil {
		return v, fmt.Errorf("decode %s event %d: %w", e.Type, e.Seq, err)
	}
	return v, nil
}
