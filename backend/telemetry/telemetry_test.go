package telemetry_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"

	"hermes/backend/event"
	"hermes/backend/runlog"
	"hermes/backend/telemetry"
	"hermes/backend/telemetry/telemetrytest"
)

// recorded reads one of the recorded sample runs: the real loop against a
// scripted model, with reasoning, a retry, approvals and compressions.
func recorded(t *testing.T, name string) []event.Event {
	t.Helper()
	events, err := runlog.ReadFile("../runner/sample/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return events
}

// export writes the runs' events into an exporter to rec and closes it,
// which sends every span.
func export(t *testing.T, o telemetry.Options, redact func([]byte) []byte, runs ...[]event.Event) {
	t.Helper()
	x, err := telemetry.New(t.Context(), o)
	if err != nil {
		t.Fatal(err)
	}
	for _, events := range runs {
		tr := x.Run(redact)
		for _, e := range events {
			if err := tr.Write(e); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := x.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
}

func str(s telemetrytest.Span, key string) string {
	return telemetrytest.Attr(s.Attributes, key).GetStringValue()
}

func num(s telemetrytest.Span, key string) int64 {
	return telemetrytest.Attr(s.Attributes, key).GetIntValue()
}

func named(spans []telemetrytest.Span, prefix string) []telemetrytest.Span {
	var out []telemetrytest.Span
	for _, s := range spans {
		if strings.HasPrefix(s.Name, prefix) {
			out = append(out, s)
		}
	}
	return out
}

func byID(spans []telemetrytest.Span) map[string]telemetrytest.Span {
	out := map[string]telemetrytest.Span{}
	for _, s := range spans {
		out[hex.EncodeToString(s.SpanId)] = s
	}
	return out
}

func parentOf(s telemetrytest.Span, all map[string]telemetrytest.Span) telemetrytest.Span {
	return all[hex.EncodeToString(s.ParentSpanId)]
}

func events(s telemetrytest.Span, name string) []*tracepb.Span_Event {
	var out []*tracepb.Span_Event
	for _, e := range s.Events {
		if e.Name == name {
			out = append(out, e)
		}
	}
	return out
}

func count(events []event.Event, t event.Type) int {
	n := 0
	for _, e := range events {
		if e.Type == t {
			n++
		}
	}
	return n
}

// TestExport_RecordedRun: a recorded run read back from its log becomes one
// trace: the run's root, an iteration span per iteration under it, and under
// each iteration the model call (GenAI attributes: operation, model,
// provider, tokens in and out, reasoning tokens, finish reason) and the tool
// calls (name, status, duration, retries); retries, approvals and
// compressions are span events; each span starts and ends at its events'
// times. Without include_content no prompt, reasoning, argument or result
// leaves.
func TestExport_RecordedRun(t *testing.T) {
	run := recorded(t, "controls.jsonl")
	rec := telemetrytest.NewHTTP(t)
	export(t, telemetry.Options{Endpoint: rec.URL, ServiceName: "hermes-test"}, nil, run)
	spans := rec.Spans()
	all := byID(spans)

	roots := named(spans, "invoke_agent")
	if len(roots) != 1 || len(roots[0].ParentSpanId) != 0 {
		t.Fatalf("want one root span, got %d", len(roots))
	}
	root := roots[0]
	first, last := run[0], run[len(run)-1]
	if root.Service != "hermes-test" || str(root, "gen_ai.operation.name") != "invoke_agent" || str(root, "hermes.run.id") != first.RunID ||
		str(root, "gen_ai.request.model") != "sample-model" || str(root, "hermes.status") != event.StatusFinished {
		t.Fatalf("root span %q: service %q, attributes %v", root.Name, root.Service, root.Attributes)
	}
	if root.StartTimeUnixNano != uint64(first.Time.UnixNano()) || root.EndTimeUnixNano != uint64(last.Time.UnixNano()) {
		t.Fatalf("the root spans %d–%d, the run %v–%v", root.StartTimeUnixNano, root.EndTimeUnixNano, first.Time, last.Time)
	}
	for _, s := range spans {
		if !bytes.Equal(s.TraceId, root.TraceId) {
			t.Fatalf("span %q is in another trace", s.Name)
		}
	}

	iterations := named(spans, "iteration ")
	if len(iterations) != count(run, event.IterationStarted) {
		t.Fatalf("%d iteration spans for %d iterations", len(iterations), count(run, event.IterationStarted))
	}
	for _, it := range iterations {
		if !bytes.Equal(it.ParentSpanId, root.SpanId) {
			t.Fatalf("%s is not under the root", it.Name)
		}
	}

	chats := named(spans, "chat ")
	if len(chats) != count(run, event.ModelDecided) {
		t.Fatalf("%d model spans for %d decisions", len(chats), count(run, event.ModelDecided))
	}
	var wantIn, wantOut, wantReasoning, gotIn, gotOut, gotReasoning int64
	for _, e := range run {
		if e.Type == event.ModelDecided {
			d, _ := event.Decode[event.ModelDecidedData](e)
			wantIn, wantOut, wantReasoning = wantIn+int64(d.Usage.PromptTokens), wantOut+int64(d.Usage.CompletionTokens), wantReasoning+int64(d.Usage.ReasoningTokens)
		}
	}
	retried := 0
	for _, c := range chats {
		if p := parentOf(c, all); !strings.HasPrefix(p.Name, "iteration ") {
			t.Fatalf("%s is under %q, not an iteration", c.Name, p.Name)
		}
		if c.Kind != tracepb.Span_SPAN_KIND_CLIENT || str(c, "gen_ai.operation.name") != "chat" || str(c, "gen_ai.request.model") != "sample-model" ||
			str(c, "gen_ai.response.model") != "sample-model" || str(c, "gen_ai.provider.name") == "" || str(c, "gen_ai.system") == "" {
			t.Fatalf("model span %s: %v", c.Name, c.Attributes)
		}
		if fr := telemetrytest.Attr(c.Attributes, "gen_ai.response.finish_reasons").GetArrayValue().GetValues(); len(fr) != 1 || fr[0].GetStringValue() == "" {
			t.Fatalf("model span without its finish reason: %v", c.Attributes)
		}
		gotIn, gotOut, gotReasoning = gotIn+num(c, "gen_ai.usage.input_tokens"), gotOut+num(c, "gen_ai.usage.output_tokens"), gotReasoning+num(c, "gen_ai.usage.reasoning.output_tokens")
		if c.StartTimeUnixNano >= c.EndTimeUnixNano {
			t.Fatalf("model span %s has no duration", c.Name)
		}
		retried += len(events(c, "model.retried"))
	}
	if gotIn != wantIn || gotOut != wantOut || gotReasoning != wantReasoning || wantReasoning == 0 {
		t.Fatalf("tokens in/out/reasoning = %d/%d/%d, the decisions said %d/%d/%d", gotIn, gotOut, gotReasoning, wantIn, wantOut, wantReasoning)
	}
	if retried != count(run, event.ModelRetried) || retried == 0 {
		t.Fatalf("%d retry events on the model spans, the run had %d", retried, count(run, event.ModelRetried))
	}

	tools := named(spans, "execute_tool ")
	if len(tools) != count(run, event.ToolFinished) {
		t.Fatalf("%d tool spans for %d finished calls", len(tools), count(run, event.ToolFinished))
	}
	failed := 0
	for _, s := range tools {
		if p := parentOf(s, all); !strings.HasPrefix(p.Name, "iteration ") {
			t.Fatalf("%s is under %q, not an iteration", s.Name, p.Name)
		}
		if str(s, "gen_ai.tool.name") != strings.TrimPrefix(s.Name, "execute_tool ") || str(s, "gen_ai.tool.call.id") == "" ||
			telemetrytest.Attr(s.Attributes, "hermes.tool.duration_ms") == nil || telemetrytest.Attr(s.Attributes, "hermes.tool.retries") == nil {
			t.Fatalf("tool span %s: %v", s.Name, s.Attributes)
		}
		if str(s, "hermes.tool.status") == "error" {
			failed++
			if s.Status.GetCode() != tracepb.Status_STATUS_CODE_ERROR || s.Status.GetMessage() != "" {
				t.Fatalf("failed tool span %s: status %v", s.Name, s.Status)
			}
		}
	}
	if failed != 1 { // the denied write
		t.Fatalf("%d failed tool spans, want the denied one", failed)
	}

	var approvals, compressions int
	for _, s := range spans {
		approvals += len(events(s, "approval.requested")) + len(events(s, "approval.resolved"))
		compressions += len(events(s, "compression"))
	}
	if approvals != count(run, event.ApprovalRequested)+count(run, event.ApprovalResolved) || compressions != count(run, event.SummaryUpdated) || compressions == 0 {
		t.Fatalf("%d approval and %d compression span events", approvals, compressions)
	}

	raw := bytes.Join(rec.Raw(), nil)
	for _, content := range []string{"gen_ai.input.messages", "gen_ai.output.messages", "gen_ai.tool.call.result", "gen_ai.tool.call.arguments", "buy milk", "Tick off my list"} {
		if bytes.Contains(raw, []byte(content)) {
			t.Errorf("without include_content the export holds %q", content)
		}
	}
}

// TestExport_ContentRedacted: with include_content the prompts, reasoning,
// arguments and results are exported, scrubbed by the run's redactor: a
// secret a tool read never reaches the collector.
func TestExport_ContentRedacted(t *testing.T) {
	const secret = "sk-live-secret-in-a-file-0123456789"
	run := recorded(t, "controls.jsonl")
	// The run read the secret: its first result holds it, raw, as a log
	// written without the secret known would.
	for i, e := range run {
		if e.Type == event.ToolFinished {
			d, _ := event.Decode[event.ToolFinishedData](e)
			d.Result += "\nAPI_KEY=" + secret
			run[i].Data, _ = json.Marshal(d)
			break
		}
	}
	rec := telemetrytest.NewHTTP(t)
	export(t, telemetry.Options{Endpoint: rec.URL, IncludeContent: true}, runlog.NewRedactor(secret).Redact, run)
	raw := bytes.Join(rec.Raw(), nil)
	if bytes.Contains(raw, []byte(secret)) {
		t.Fatal("the secret reached the collector")
	}
	if !bytes.Contains(raw, []byte(runlog.Redacted)) {
		t.Fatal("the result with the secret was not exported, redacted")
	}
	spans := rec.Spans()
	var result, args, input, output bool
	for _, s := range spans {
		result = result || strings.Contains(str(s, "gen_ai.tool.call.result"), "buy milk")
		args = args || strings.Contains(str(s, "gen_ai.tool.call.arguments"), "todo.md")
		input = input || strings.Contains(str(s, "gen_ai.input.messages"), "Tick off my list")
		output = output || strings.Contains(str(s, "gen_ai.output.messages"), `"type":"reasoning"`)
	}
	if !result || !args || !input || !output {
		t.Fatalf("content exported: result %v, arguments %v, prompt %v, reasoning %v", result, args, input, output)
	}
}

// TestExport_ForkLinksToItsSource: a fork's root links to its source run's
// root, whose ids come from the run's id, so the link holds across
// processes and replays.
func TestExport_ForkLinksToItsSource(t *testing.T) {
	source := recorded(t, "sample.jsonl")
	at := source[len(source)-1].Time.Add(time.Minute)
	fork := []event.Event{
		mk(t, "fork-1", 1, at, event.RunStarted, 0, event.RunStartedData{Model: "m", BaseURL: "https://api.deepseek.com/v1", ForkedFrom: &event.ForkRef{RunID: source[0].RunID, Iteration: 2}}),
		mk(t, "fork-1", 2, at.Add(time.Second), event.RunFinished, 0, event.RunFinishedData{Status: event.StatusFinished}),
	}
	rec := telemetrytest.NewHTTP(t)
	export(t, telemetry.Options{Endpoint: rec.URL}, nil, source, fork)
	var src, forked telemetrytest.Span
	for _, s := range named(rec.Spans(), "invoke_agent") {
		switch str(s, "hermes.run.id") {
		case source[0].RunID:
			src = s
		case "fork-1":
			forked = s
		}
	}
	if src.Span == nil || forked.Span == nil {
		t.Fatal("a root span is missing")
	}
	if len(forked.Links) != 1 || !bytes.Equal(forked.Links[0].TraceId, src.TraceId) || !bytes.Equal(forked.Links[0].SpanId, src.SpanId) {
		t.Fatalf("the fork's links %v do not name the source's root", forked.Links)
	}
	if bytes.Equal(forked.TraceId, src.TraceId) || num(forked, "hermes.forked_from.iteration") != 2 || str(forked, "gen_ai.provider.name") != "deepseek" {
		t.Fatalf("fork root: %v", forked.Attributes)
	}
}

// TestExport_ResumedLegJoinsTheRun: a leg resumed from a checkpoint, in
// another process, is a child of the run's root in the run's trace.
func TestExport_ResumedLegJoinsTheRun(t *testing.T) {
	at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	first := []event.Event{
		mk(t, "r-1", 1, at, event.RunStarted, 0, event.RunStartedData{Model: "m"}),
		mk(t, "r-1", 2, at.Add(time.Second), event.RunFinished, 0, event.RunFinishedData{Status: event.StatusStopped}),
	}
	second := []event.Event{
		mk(t, "r-1", 3, at.Add(time.Hour), event.RunResumed, 0, event.RunResumedData{FromCheckpoint: true, Model: "m"}),
		mk(t, "r-1", 4, at.Add(time.Hour+time.Second), event.RunFinished, 0, event.RunFinishedData{Status: event.StatusFinished}),
	}
	rec := telemetrytest.NewHTTP(t)
	export(t, telemetry.Options{Endpoint: rec.URL}, nil, first)
	export(t, telemetry.Options{Endpoint: rec.URL}, nil, second)
	spans := rec.Spans()
	root, leg := named(spans, "invoke_agent"), named(spans, "resume")
	if len(root) != 1 || len(leg) != 1 {
		t.Fatalf("%d roots and %d resumed legs", len(root), len(leg))
	}
	if !bytes.Equal(leg[0].TraceId, root[0].TraceId) || !bytes.Equal(leg[0].ParentSpanId, root[0].SpanId) {
		t.Fatal("the resumed leg is not under the run's root")
	}
}

// TestExport_OverGRPC: the same run over OTLP/gRPC, with its headers.
func TestExport_OverGRPC(t *testing.T) {
	run := recorded(t, "sample.jsonl")
	rec := telemetrytest.NewGRPC(t)
	export(t, telemetry.Options{Endpoint: rec.URL, Protocol: telemetry.ProtocolGRPC, Headers: map[string]string{"Authorization": "Bearer grpc-token"}}, nil, run)
	spans := rec.Spans()
	want := 1 + count(run, event.IterationStarted) + count(run, event.ModelDecided) + count(run, event.ToolFinished)
	if len(spans) != want {
		t.Fatalf("%d spans over gRPC, want %d", len(spans), want)
	}
	if h := rec.Headers(); len(h) == 0 || len(h[0]["authorization"]) != 1 || h[0]["authorization"][0] != "Bearer grpc-token" {
		t.Fatalf("headers = %v", h)
	}
	var guards int
	for _, s := range spans {
		guards += len(events(s, "guard.tripped"))
	}
	if guards != count(run, event.GuardTripped) || guards == 0 {
		t.Fatalf("%d guard span events, the run had %d", guards, count(run, event.GuardTripped))
	}
}

// TestExport_FailureToldOnce: a collector that refuses the exports (a
// wrong key) is told once, without the header, and the runs go on.
func TestExport_FailureToldOnce(t *testing.T) {
	const auth = "Basic bGYtcGstd3Jvbmc6bGYtc2std3Jvbmc="
	rec := telemetrytest.NewHTTP(t)
	rec.Fail.Store(true)
	told := make(chan error, 10)
	x, err := telemetry.New(t.Context(), telemetry.Options{
		Endpoint: rec.URL, Headers: map[string]string{"Authorization": auth}, BatchTimeout: time.Millisecond,
		OnError: func(err error) { told <- err },
	})
	if err != nil {
		t.Fatal(err)
	}
	run := recorded(t, "sample.jsonl")
	write := func() {
		tr := x.Run(nil)
		for _, e := range run {
			if err := tr.Write(e); err != nil {
				t.Fatalf("a failed export failed the run: %v", err)
			}
		}
	}
	write()
	var first error
	select {
	case first = <-told:
	case <-time.After(10 * time.Second):
		t.Fatal("the failed export was not told")
	}
	// Later batches fail too, and are not told again.
	write()
	write()
	if err := x.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	close(told)
	if more := len(told); more != 0 || !errors.Is(first, telemetry.ErrExport) || strings.Contains(first.Error(), auth) {
		t.Fatalf("told %v and %d more, want one ErrExport without the header", first, more)
	}
}

// TestExport_HungCollector: a collector that never answers neither slows
// the runs' events nor holds Close past its deadline.
func TestExport_HungCollector(t *testing.T) {
	release := make(chan struct{})
	hung := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer hung.Close()
	defer close(release)
	x, err := telemetry.New(t.Context(), telemetry.Options{Endpoint: hung.URL, BatchTimeout: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	run := recorded(t, "sample.jsonl")
	for range 50 { // more spans than one batch takes
		tr := x.Run(nil)
		for _, e := range run {
			if err := tr.Write(e); err != nil {
				t.Fatal(err)
			}
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	if err := x.Close(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Close = %v, want it given up at its deadline", err)
	}
}

// TestNew_RefusesABadEndpoint names what to set.
func TestNew_RefusesABadEndpoint(t *testing.T) {
	for _, o := range []telemetry.Options{{}, {Endpoint: "localhost:4318"}, {Endpoint: "http://localhost:4318", Protocol: "udp"}} {
		if _, err := telemetry.New(t.Context(), o); err == nil || !strings.Contains(err.Error(), "[telemetry]") {
			t.Errorf("New(%+v) = %v, want an error naming [telemetry]", o, err)
		}
	}
}

func mk(t *testing.T, runID string, seq int64, at time.Time, typ event.Type, iteration int, payload any) event.Event {
	t.Helper()
	data, err := json.Marshal(payload)
	if err != nil {
		t.Fatal(err)
	}
	return event.Event{V: event.Version, RunID: runID, Seq: seq, Time: at, Iteration: iteration, Type: typ, Data: data}
}
