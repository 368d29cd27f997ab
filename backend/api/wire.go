package api

import (
	"hermes/backend/agent"
	"hermes/backend/contextmgr"
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/longterm"
	"hermes/backend/update"
)

// Shape is one wire type under the name the UI knows it by: Value is a zero
// value of its Go type. Types that a listed one holds and that are not
// listed keep their Go name.
type Shape struct {
	Name  string
	Value any
}

// Shapes are the requests and answers of the local API (docs/api.md), and
// the types they hold that the UI names otherwise than Go does.
var Shapes = []Shape{
	{"RunSummary", Summary{}},
	{"RunPage", RunPage{}},
	{"StartRunRequest", StartRequest{}},
	{"Overrides", Overrides{}},
	{"ForkRequest", ForkRequest{}},
	{"RunRef", RunRef{}},
	{"ControlRequest", Control{}},
	{"ApprovalAnswer", Answer{}},
	{"RenameRequest", RenameRequest{}},
	{"PinRequest", PinRequest{}},
	{"LabelRequest", LabelRequest{}},
	{"CaseProposal", CaseProposal{}},
	{"CaseRequest", CaseRequest{}},
	{"CaseSaved", CaseSaved{}},
	{"VaultEdit", VaultEdit{}},
	{"VaultNote", VaultNote{}},
	{"ApiErrorBody", Error{}},
	{"ApiErrorResponse", ErrorBody{}},
	{"ModelCheck", ModelCheck{}},
	{"Settings", Settings{}},
	{"VaultRequest", VaultRequest{}},
	{"Owner", Owner{}},
	{"Notice", Notice{}},
	{"UpdateStatus", update.Status{}},
	{"ContextPreview", contextmgr.Preview{}},
	{"MemoryEntry", longterm.Entry{}},
	{"StreamOpened", StreamOpened{}},
	{"StreamChange", StreamChange{}},
	{"StreamEnd", StreamEnd{}},
	{"ClusterStatus", ClusterStatus{}},
	{"HermesEvent", event.Event{}},
	{"ChatMessage", llm.Message{}},
	{"WireToolCall", llm.ToolCall{}},
}

// Payload is the data of one event type.
type Payload struct {
	Type  event.Type
	Value any
}

// Events are every event type of backend/event with its payload, in the
// order event.go declares them. Payloads are versioned (extended, never
// renamed): a log written before a field existed lacks it, so the UI reads
// every field of a payload as optional.
var Events = []Payload{
	{event.RunStarted, event.RunStartedData{}},
	{event.IterationStarted, event.IterationStartedData{}},
	{event.ContextBuilt, event.ContextBuiltData{}},
	{event.ModelDelta, event.ModelDeltaData{}},
	{event.ModelReasoning, event.ModelReasoningData{}},
	{event.ModelRetried, event.ModelRetriedData{}},
	{event.ModelDecided, event.ModelDecidedData{}},
	{event.ToolStarted, event.ToolStartedData{}},
	{event.ToolFinished, event.ToolFinishedData{}},
	{event.GuardTripped, event.GuardTrippedData{}},
	{event.LimitNear, event.LimitNearData{}},
	{event.ApprovalRequested, event.ApprovalRequestedData{}},
	{event.ApprovalResolved, event.ApprovalResolvedData{}},
	{event.RunPaused, event.RunPausedData{}},
	{event.RunResumed, event.RunResumedData{}},
	{event.InstructionInjected, event.InstructionInjectedData{}},
	{event.TaskEdited, event.TaskEditedData{}},
	{event.CallEdited, event.CallEditedData{}},
	{event.SummaryUpdated, event.SummaryUpdatedData{}},
	{event.ContextPinned, event.ContextPinnedData{}},
	{event.MemoryWritten, event.MemoryWrittenData{}},
	{event.MemoryRecalled, event.MemoryRecalledData{}},
	{event.CheckpointSaved, event.CheckpointSavedData{}},
	{event.RunFinished, event.RunFinishedData{}},
	{event.RouteDecided, event.RouteDecidedData{}},
	{event.PlanCreated, event.PlanCreatedData{}},
	{event.PlanRevised, event.PlanRevisedData{}},
	{event.StepEvaluated, event.StepEvaluatedData{}},
	{event.CompletionChecked, event.CompletionCheckedData{}},
	{event.QuestionAsked, event.QuestionAskedData{}},
	{event.QuestionAnswered, event.QuestionAnsweredData{}},
}

// Enum is a set of string values the wire carries. Of, when set, is a zero
// value of the Go string type whose fields take these values; Open says a
// reader may meet a value not listed (a newer log, a newer server), so
// such a field reads as any string too. List, when set, names a constant
// array of the values for the UI.
type Enum struct {
	Name   string
	Of     any
	Values []string
	Open   bool
	List   string
}

// Enums are the value sets of the wire.
var Enums = []Enum{
	{Name: "EventType", Of: event.Type(""), Values: eventTypes(), Open: true},
	{Name: "RunStatus", Values: []string{
		event.StatusRunning, event.StatusFinished, event.StatusMaxIterations, event.StatusGuard,
		event.StatusBudget, event.StatusStopped, event.StatusFailed,
	}, List: "runStatuses"},
	{Name: "ControlKind", Of: agent.ControlKind(""), Values: []string{
		string(agent.ControlPause), string(agent.ControlResume), string(agent.ControlStop), string(ControlCancel),
		string(agent.ControlInject), string(agent.ControlEdit), string(agent.ControlEditCall),
		string(agent.ControlPin), string(agent.ControlAnswer),
	}},
	{Name: "ApprovalDecision", Values: []string{event.ApproveOnce, event.ApproveRun, event.ApproveAlways, event.ApproveDeny}},
	{Name: "StepStatus", Values: []string{event.StepPending, event.StepPassed, event.StepFailed}},
	{Name: "MemoryKind", Values: []string{longterm.KindOutcome, longterm.KindFact, longterm.KindPreference, longterm.KindPath}},
	{Name: "NoticeKind", Values: []string{NoticeConfigError, NoticeConfigReloaded, NoticeUpdate}},
	{Name: "UpdateState", Of: update.State(""), Open: true, Values: []string{
		string(update.StateIdle), string(update.StateChecking), string(update.StateUpToDate), string(update.StateDownloading),
		string(update.StateReady), string(update.StateApplying), string(update.StateApplied), string(update.StateFailed),
	}},
	{Name: "InstallForm", Of: update.Form(""), Open: true, Values: []string{
		string(update.FormBinary), string(update.FormInstaller), string(update.FormPackage), string(update.FormBundle),
	}},
}

func eventTypes() []string {
	out := make([]string, len(Events))
	for i, p := range Events {
		out[i] = string(p.Type)
	}
	return out
}
