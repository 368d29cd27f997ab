package telemetry

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
	"go.opentelemetry.io/otel/trace"

	"hermes/backend/event"
	"hermes/backend/llm"
)

// Trace folds one run's events, in seq order, into spans: it is the run's
// event.Sink. Write never fails and never blocks: an event it cannot read
// is left out of the trace, not out of the run.
type Trace struct {
	tracer  trace.Tracer
	content bool
	redact  func([]byte) []byte

	runID, model, provider string

	leg    trace.Span // the run's root span, or a resumed leg's
	legCtx context.Context
	iter   trace.Span // the open iteration's span
	iterAt int
	tools  map[string]trace.Span // open tool calls, by call id

	// asked is when the next model call was asked (its context.built);
	// prompt holds the messages that request added, for IncludeContent.
	asked   time.Time
	prompt  []llm.Message
	retries []event.Event // model.retried since the last model call
}

func newTrace(tracer trace.Tracer, content bool, redact func([]byte) []byte) *Trace {
	return &Trace{tracer: tracer, content: content, redact: redact, tools: map[string]trace.Span{}}
}

// Write adds one event to the trace.
func (t *Trace) Write(e event.Event) error {
	switch e.Type {
	case event.RunStarted:
		t.started(e)
	case event.RunResumed:
		t.resumed(e)
	case event.IterationStarted:
		t.endIteration(e.Time)
		t.iterAt = e.Iteration
		_, t.iter = t.tracer.Start(t.legContext(), "iteration "+itoa(e.Iteration), trace.WithTimestamp(e.Time),
			trace.WithAttributes(attribute.Int(keyIteration, e.Iteration)))
	case event.ContextBuilt:
		t.asked = e.Time
		if t.content {
			// Only then: the messages can be long, and this is the run's path.
			if d, err := event.Decode[event.ContextBuiltData](e); err == nil {
				t.prompt = d.Messages
			}
		}
	case event.ModelRetried:
		t.retries = append(t.retries, e)
	case event.ModelDecided:
		t.decided(e)
	case event.RouteDecided, event.PlanCreated, event.PlanRevised, event.StepEvaluated, event.CompletionChecked:
		t.stageCall(e)
	case event.ToolStarted:
		t.toolStarted(e)
	case event.ToolFinished:
		t.toolFinished(e)
	case event.GuardTripped, event.ApprovalRequested, event.ApprovalResolved, event.SummaryUpdated:
		t.spanEvent(e)
	case event.RunFinished:
		t.finished(e)
	case event.ModelDelta, event.ModelReasoning:
		// model.decided holds the text and the reasoning whole.
	default:
		// Pauses, instructions, edits, pins, memory, checkpoints, questions.
		t.current().AddEvent(string(e.Type), trace.WithTimestamp(e.Time))
	}
	return nil
}

func (t *Trace) started(e event.Event) {
	d, err := event.Decode[event.RunStartedData](e)
	if err != nil {
		return
	}
	t.runID, t.model, t.provider = e.RunID, d.Model, providerOf(d.BaseURL)
	attrs := append(t.agentAttrs(), attribute.Int(keyMaxIterations, d.MaxIterations), attribute.StringSlice(keyTools, d.Tools))
	if d.Origin != "" {
		attrs = append(attrs, attribute.String(keyOrigin, d.Origin))
	}
	if t.content {
		attrs = append(attrs, attribute.String(keyTask, t.text(d.Task)))
		if d.Instructions != "" {
			attrs = append(attrs, attribute.String(keyInstructions, t.text(d.Instructions)))
		}
	}
	opts := []trace.SpanStartOption{trace.WithNewRoot(), trace.WithTimestamp(e.Time)}
	if f := d.ForkedFrom; f != nil {
		attrs = append(attrs, attribute.String(keyForkedFrom, f.RunID), attribute.Int(keyForkedAt, f.Iteration))
		opts = append(opts, trace.WithLinks(trace.Link{
			SpanContext: rootOf(f.RunID),
			Attributes:  []attribute.KeyValue{attribute.String(keyLinkKind, "forked_from"), attribute.Int(keyForkedAt, f.Iteration)},
		}))
	}
	opts = append(opts, trace.WithAttributes(attrs...))
	t.legCtx, t.leg = t.tracer.Start(withRoot(context.Background(), e.RunID), "invoke_agent hermes", opts...)
}

// resumed starts a leg taken up from a checkpoint, under the run's root
// (which another process may have sent); a resume after a pause is an
// event of the leg.
func (t *Trace) resumed(e event.Event) {
	d, err := event.Decode[event.RunResumedData](e)
	if err != nil {
		return
	}
	if t.leg != nil && !d.FromCheckpoint {
		t.current().AddEvent(string(e.Type), trace.WithTimestamp(e.Time))
		return
	}
	t.runID = e.RunID
	if d.Model != "" {
		t.model = d.Model
	}
	if d.BaseURL != "" {
		t.provider = providerOf(d.BaseURL)
	}
	attrs := append(t.agentAttrs(), attribute.Int(keyResumedAt, d.Iteration))
	if d.Switched() {
		attrs = append(attrs, attribute.String(keyResumedFromModel, d.FromModel))
	}
	parent := trace.ContextWithRemoteSpanContext(context.Background(), rootOf(e.RunID))
	t.legCtx, t.leg = t.tracer.Start(parent, "resume hermes", trace.WithTimestamp(e.Time), trace.WithAttributes(attrs...))
}

func (t *Trace) agentAttrs() []attribute.KeyValue {
	return append([]attribute.KeyValue{
		semconv.GenAIOperationNameInvokeAgent, semconv.GenAIAgentName("hermes"),
		semconv.GenAIConversationID(t.runID), attribute.String(keyRunID, t.runID),
		semconv.GenAIRequestModel(t.model),
	}, providerAttrs(t.provider)...)
}

func (t *Trace) decided(e event.Event) {
	d, err := event.Decode[event.ModelDecidedData](e)
	if err != nil {
		return
	}
	start := t.asked
	if start.IsZero() || start.After(e.Time) {
		start = e.Time.Add(-time.Duration(d.LatencyMS) * time.Millisecond)
	}
	stage := d.Stage
	if stage == "" {
		stage = event.StageDeciding
	}
	attrs := append(t.chatAttrs(stage, d.Usage), attribute.Int(keyAttempts, d.Attempts))
	if d.FinishReason != "" {
		attrs = append(attrs, semconv.GenAIResponseFinishReasons(d.FinishReason))
	}
	if t.content {
		attrs = append(attrs,
			attribute.String(string(semconv.GenAIInputMessagesKey), t.json(inputMessages(t.prompt))),
			attribute.String(string(semconv.GenAIOutputMessagesKey), t.json(outputMessages(d))))
	}
	t.chat(start, e.Time, attrs)
}

// stageCall is the model call of a stage (routing, planning, a step's or
// the answer's check), when the stage asked the model.
func (t *Trace) stageCall(e event.Event) {
	d, err := event.Decode[stageReply](e)
	if err != nil || d.InDecision || (d.Usage == llm.Usage{} && d.LatencyMS == 0) {
		t.current().AddEvent(string(e.Type), trace.WithTimestamp(e.Time))
		return
	}
	t.chat(e.Time.Add(-time.Duration(d.LatencyMS)*time.Millisecond), e.Time, t.chatAttrs(stageOf[e.Type], d.Usage))
}

// stageReply is what every stage's event says of its model call.
type stageReply struct {
	Usage      llm.Usage `json:"usage"`
	LatencyMS  int64     `json:"latency_ms"`
	InDecision bool      `json:"in_decision"` // a step's verdict given in a decision: no call of its own
}

var stageOf = map[event.Type]string{
	event.RouteDecided:      event.StageIntake,
	event.PlanCreated:       event.StagePlanning,
	event.PlanRevised:       event.StagePlanning,
	event.StepEvaluated:     event.StageEvaluating,
	event.CompletionChecked: event.StageCompletion,
}

func (t *Trace) chatAttrs(stage string, u llm.Usage) []attribute.KeyValue {
	attrs := append([]attribute.KeyValue{
		semconv.GenAIOperationNameChat, semconv.GenAIRequestModel(t.model), semconv.GenAIResponseModel(t.model),
		semconv.GenAIConversationID(t.runID), attribute.String(keyStage, stage),
		semconv.GenAIUsageInputTokens(u.PromptTokens), semconv.GenAIUsageOutputTokens(u.CompletionTokens),
	}, providerAttrs(t.provider)...)
	if u.ReasoningTokens > 0 {
		attrs = append(attrs, attribute.Int(keyReasoningTokens, u.ReasoningTokens))
	}
	return attrs
}

// chat records one model call from start to end, with the retries it took.
func (t *Trace) chat(start, end time.Time, attrs []attribute.KeyValue) {
	_, span := t.tracer.Start(t.currentContext(), "chat "+t.model, trace.WithTimestamp(start),
		trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
	for _, r := range t.retries {
		d, _ := event.Decode[event.ModelRetriedData](r)
		opts := []trace.EventOption{trace.WithTimestamp(r.Time), trace.WithAttributes(attribute.Int(keyAttempt, d.Attempt), attribute.Int64(keyWaitMS, d.WaitMS))}
		span.AddEvent(string(r.Type), opts...)
	}
	span.End(trace.WithTimestamp(end))
	t.asked, t.prompt, t.retries = time.Time{}, nil, nil
}

func (t *Trace) toolStarted(e event.Event) {
	d, err := event.Decode[event.ToolStartedData](e)
	if err != nil {
		return
	}
	t.tools[d.CallID] = t.startTool(e.Time, d.CallID, d.Name, d.Attempt, d.Arguments)
}

func (t *Trace) startTool(at time.Time, id, name string, attempt int, args string) trace.Span {
	attrs := []attribute.KeyValue{
		semconv.GenAIOperationNameExecuteTool, semconv.GenAIToolName(name), semconv.GenAIToolCallID(id),
		semconv.GenAIToolType("function"), semconv.GenAIConversationID(t.runID),
		attribute.Int(keyToolAttempt, attempt), attribute.Int(keyRetries, max(attempt-1, 0)),
	}
	if t.content && args != "" {
		attrs = append(attrs, attribute.String(string(semconv.GenAIToolCallArgumentsKey), t.text(args)))
	}
	_, span := t.tracer.Start(t.currentContext(), "execute_tool "+name, trace.WithTimestamp(at), trace.WithAttributes(attrs...))
	return span
}

func (t *Trace) toolFinished(e event.Event) {
	d, err := event.Decode[event.ToolFinishedData](e)
	if err != nil {
		return
	}
	span, ok := t.tools[d.CallID]
	delete(t.tools, d.CallID)
	if !ok {
		// A call refused before it ran (denied, invalid) has no start.
		span = t.startTool(e.Time.Add(-time.Duration(d.DurationMS)*time.Millisecond), d.CallID, d.Name, d.Attempt, "")
	}
	status := "ok"
	if !d.OK {
		status = "error"
	}
	span.SetAttributes(attribute.String(keyToolStatus, status), attribute.Int64(keyDurationMS, d.DurationMS), attribute.Int(keyResultSize, d.Size))
	if t.content {
		span.SetAttributes(attribute.String(string(semconv.GenAIToolCallResultKey), t.text(d.Result)))
	}
	if !d.OK {
		span.SetAttributes(semconv.ErrorTypeKey.String("tool_error"))
		desc := ""
		if t.content {
			desc = t.text(d.Error)
		}
		span.SetStatus(codes.Error, desc)
	}
	span.End(trace.WithTimestamp(e.Time))
}

// spanEvent records a guard, an approval or a compression on the span it
// happened in.
func (t *Trace) spanEvent(e event.Event) {
	var attrs []attribute.KeyValue
	switch e.Type {
	case event.GuardTripped:
		d, _ := event.Decode[event.GuardTrippedData](e)
		attrs = []attribute.KeyValue{attribute.String(keyGuard, d.Guard), attribute.String(keyGuardAction, d.Action), attribute.String(keyStage, d.Stage)}
		if t.content {
			attrs = append(attrs, attribute.String(keyMessage, t.text(d.Message)))
		}
	case event.ApprovalRequested:
		d, _ := event.Decode[event.ApprovalRequestedData](e)
		attrs = []attribute.KeyValue{semconv.GenAIToolCallID(d.CallID), semconv.GenAIToolName(d.Name), attribute.String(keyRisk, d.Risk)}
		if t.content {
			// The reason may quote the arguments (a sensitive pattern).
			attrs = append(attrs, attribute.String(string(semconv.GenAIToolCallArgumentsKey), t.text(d.Arguments)), attribute.String(keyReason, t.text(d.Reason)))
		}
	case event.ApprovalResolved:
		d, _ := event.Decode[event.ApprovalResolvedData](e)
		attrs = []attribute.KeyValue{semconv.GenAIToolCallID(d.CallID), attribute.String(keyDecision, d.Decision), attribute.String(keyBy, d.By)}
		if t.content && d.Reason != "" {
			attrs = append(attrs, attribute.String(keyReason, t.text(d.Reason)))
		}
	case event.SummaryUpdated:
		d, _ := event.Decode[summary](e)
		attrs = []attribute.KeyValue{
			attribute.Int(keyTurnsFolded, d.TurnsFolded), attribute.Int(keyTokensBefore, d.TokensBefore), attribute.Int(keyTokensAfter, d.TokensAfter),
			semconv.GenAIRequestModel(d.Model), semconv.GenAIUsageInputTokens(d.Usage.PromptTokens), semconv.GenAIUsageOutputTokens(d.Usage.CompletionTokens),
		}
		if t.content {
			attrs = append(attrs, attribute.String(keySummary, t.text(d.Summary)))
		}
		t.current().AddEvent("compression", trace.WithTimestamp(e.Time), trace.WithAttributes(attrs...))
		return
	}
	t.current().AddEvent(string(e.Type), trace.WithTimestamp(e.Time), trace.WithAttributes(attrs...))
}

// summary is summary.updated with the usage of the call that wrote it.
type summary struct {
	event.SummaryUpdatedData
	Usage llm.Usage `json:"usage"`
}

func (t *Trace) finished(e event.Event) {
	d, err := event.Decode[event.RunFinishedData](e)
	if t.leg == nil || err != nil {
		return
	}
	for id, span := range t.tools {
		span.SetStatus(codes.Error, "unfinished")
		span.End(trace.WithTimestamp(e.Time))
		delete(t.tools, id)
	}
	t.endIteration(e.Time)
	tot := d.Totals
	t.leg.SetAttributes(
		attribute.String(keyStatus, d.Status), attribute.Bool(keyVerified, d.Verified),
		attribute.Int(keyIterations, tot.Iterations), attribute.Int(keyToolCalls, tot.ToolCalls),
		semconv.GenAIUsageInputTokens(tot.PromptTokens), semconv.GenAIUsageOutputTokens(tot.CompletionTokens),
		attribute.Int(keyReasoningTokens, tot.ReasoningTokens),
	)
	if d.BestEffort {
		t.leg.SetAttributes(attribute.Bool(keyBestEffort, true))
	}
	if t.content && d.Answer != "" {
		t.leg.SetAttributes(attribute.String(keyAnswer, t.text(d.Answer)))
	}
	if d.Status == event.StatusFailed {
		// Hermes's own words, scrubbed as every event is.
		t.leg.SetStatus(codes.Error, t.text(d.Error))
	}
	t.leg.End(trace.WithTimestamp(e.Time))
	t.leg, t.legCtx = nil, nil
}

func (t *Trace) endIteration(at time.Time) {
	if t.iter != nil {
		t.iter.End(trace.WithTimestamp(at))
		t.iter = nil
	}
}

// legContext is the context the leg's children start from.
func (t *Trace) legContext() context.Context {
	if t.legCtx == nil {
		return context.Background()
	}
	return t.legCtx
}

// currentContext is the context of the innermost open span: the iteration's, or
// the leg's between iterations.
func (t *Trace) currentContext() context.Context {
	if t.iter != nil {
		return trace.ContextWithSpan(t.legContext(), t.iter)
	}
	return t.legContext()
}

// current is the innermost open span; a no-op span when none is open.
func (t *Trace) current() trace.Span { return trace.SpanFromContext(t.currentContext()) }

func (t *Trace) text(s string) string {
	if t.redact == nil {
		return s
	}
	return string(t.redact([]byte(s)))
}
