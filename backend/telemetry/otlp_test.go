package telemetry

import (
	"bytes"
	"context"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"hermes/backend/telemetry/telemetrytest"
)

// TestEncodeSpans_DecodesWithTheOTLPPackages: the request written by hand
// reads back, with the generated OTLP packages, as the OTLP exporters'
// transform writes it: resource and scope, ids, parent, kind, times, every
// kind of attribute value (zero values too: a oneof keeps them), events,
// links, status and flags.
func TestEncodeSpans_DecodesWithTheOTLPPackages(t *testing.T) {
	var ended []*spanData
	tracer := &tracer{end: func(d *spanData) { ended = append(ended, d) }}
	start := time.Date(2026, 12, 1, 9, 0, 0, 123, time.UTC)
	ctx, parent := tracer.Start(context.Background(), "parent", trace.WithTimestamp(start))
	link := rootOf("a-run")
	_, child := tracer.Start(ctx, "child 中文", trace.WithSpanKind(trace.SpanKindClient), trace.WithTimestamp(start.Add(time.Second)),
		trace.WithLinks(trace.Link{SpanContext: link, Attributes: []attribute.KeyValue{attribute.String("link.kind", "forked_from")}}),
		trace.WithAttributes(
			attribute.String("s", "text"), attribute.String("empty", ""),
			attribute.Int("i", -42), attribute.Int("zero", 0),
			attribute.Bool("t", true), attribute.Bool("f", false),
			attribute.Float64("x", 2.5), attribute.Float64("nan", math.Inf(1)),
			attribute.StringSlice("ss", []string{"a", ""}), attribute.Int64Slice("is", []int64{1, 0, -1}),
			attribute.BoolSlice("bs", []bool{true, false}), attribute.Float64Slice("fs", []float64{0.5}),
			attribute.String("long", strings.Repeat("长", 300)),
		))
	child.AddEvent("model.retried", trace.WithTimestamp(start.Add(1500*time.Millisecond)), trace.WithAttributes(attribute.Int("attempt", 2)))
	child.SetStatus(codes.Error, "it failed")
	child.End(trace.WithTimestamp(start.Add(2 * time.Second)))
	parent.End(trace.WithTimestamp(start.Add(3 * time.Second)))

	var req collectortrace.ExportTraceServiceRequest
	if err := proto.Unmarshal(encodeSpans(resourceInfo{service: "svc", schemaURL: "https://schema.example/1"}, ended), &req); err != nil {
		t.Fatal(err)
	}
	if len(req.ResourceSpans) != 1 || len(req.ResourceSpans[0].ScopeSpans) != 1 {
		t.Fatalf("want one resource and one scope, got %v", &req)
	}
	rs := req.ResourceSpans[0]
	if rs.SchemaUrl != "https://schema.example/1" || attr(rs.Resource.Attributes, "service.name").GetStringValue() != "svc" {
		t.Fatalf("resource %v, schema %q", rs.Resource, rs.SchemaUrl)
	}
	ss := rs.ScopeSpans[0]
	if ss.Scope.GetName() != scopeName || len(ss.Spans) != 2 {
		t.Fatalf("scope %v with %d spans", ss.Scope, len(ss.Spans))
	}
	c, p := ss.Spans[0], ss.Spans[1]
	tid, sid := parent.SpanContext().TraceID(), child.SpanContext().SpanID()
	if !bytes.Equal(c.TraceId, tid[:]) || !bytes.Equal(c.SpanId, sid[:]) || !bytes.Equal(c.ParentSpanId, p.SpanId) || len(p.ParentSpanId) != 0 {
		t.Fatalf("ids: trace %x span %x parent %x; the parent's %x", c.TraceId, c.SpanId, c.ParentSpanId, p.SpanId)
	}
	if c.Name != "child 中文" || c.Kind != tracepb.Span_SPAN_KIND_CLIENT || p.Kind != tracepb.Span_SPAN_KIND_INTERNAL {
		t.Fatalf("name %q kind %v, the parent's kind %v", c.Name, c.Kind, p.Kind)
	}
	if c.StartTimeUnixNano != uint64(start.Add(time.Second).UnixNano()) || c.EndTimeUnixNano != uint64(start.Add(2*time.Second).UnixNano()) {
		t.Fatalf("times %d–%d", c.StartTimeUnixNano, c.EndTimeUnixNano)
	}
	if c.Flags != uint32(trace.FlagsSampled)|flagHasIsRemote || c.Status.GetCode() != tracepb.Status_STATUS_CODE_ERROR || c.Status.GetMessage() != "it failed" {
		t.Fatalf("flags %x, status %v", c.Flags, c.Status)
	}
	checks := map[string]func(*commonpb.AnyValue) bool{
		"s":     func(v *commonpb.AnyValue) bool { return v.GetStringValue() == "text" },
		"empty": func(v *commonpb.AnyValue) bool { _, ok := v.GetValue().(*commonpb.AnyValue_StringValue); return ok },
		"i":     func(v *commonpb.AnyValue) bool { return v.GetIntValue() == -42 },
		"zero":  func(v *commonpb.AnyValue) bool { _, ok := v.GetValue().(*commonpb.AnyValue_IntValue); return ok },
		"t":     func(v *commonpb.AnyValue) bool { return v.GetBoolValue() },
		"f": func(v *commonpb.AnyValue) bool {
			_, ok := v.GetValue().(*commonpb.AnyValue_BoolValue)
			return ok && !v.GetBoolValue()
		},
		"x":   func(v *commonpb.AnyValue) bool { return v.GetDoubleValue() == 2.5 },
		"nan": func(v *commonpb.AnyValue) bool { return math.IsInf(v.GetDoubleValue(), 1) },
		"ss": func(v *commonpb.AnyValue) bool {
			a := v.GetArrayValue().GetValues()
			return len(a) == 2 && a[0].GetStringValue() == "a" && a[1].GetValue() != nil
		},
		"is": func(v *commonpb.AnyValue) bool {
			a := v.GetArrayValue().GetValues()
			return len(a) == 3 && a[0].GetIntValue() == 1 && a[1].GetValue() != nil && a[2].GetIntValue() == -1
		},
		"bs": func(v *commonpb.AnyValue) bool {
			a := v.GetArrayValue().GetValues()
			return len(a) == 2 && a[0].GetBoolValue() && a[1].GetValue() != nil
		},
		"fs": func(v *commonpb.AnyValue) bool {
			a := v.GetArrayValue().GetValues()
			return len(a) == 1 && a[0].GetDoubleValue() == 0.5
		},
		"long": func(v *commonpb.AnyValue) bool { return v.GetStringValue() == strings.Repeat("长", 300) },
	}
	for key, ok := range checks {
		if v := attr(c.Attributes, key); v == nil || !ok(v) {
			t.Errorf("attribute %s = %v", key, v)
		}
	}
	if len(c.Events) != 1 || c.Events[0].Name != "model.retried" || c.Events[0].TimeUnixNano != uint64(start.Add(1500*time.Millisecond).UnixNano()) ||
		attr(c.Events[0].Attributes, "attempt").GetIntValue() != 2 {
		t.Fatalf("events %v", c.Events)
	}
	lt, ls := link.TraceID(), link.SpanID()
	if len(c.Links) != 1 || !bytes.Equal(c.Links[0].TraceId, lt[:]) || !bytes.Equal(c.Links[0].SpanId, ls[:]) ||
		attr(c.Links[0].Attributes, "link.kind").GetStringValue() != "forked_from" || c.Links[0].Flags != uint32(trace.FlagsSampled)|flagHasIsRemote|flagIsRemote {
		t.Fatalf("links %v", c.Links)
	}
}

// oneSpan is an ended span named "span".
func oneSpan() []*spanData {
	var ended []*spanData
	_, s := (&tracer{end: func(d *spanData) { ended = append(ended, d) }}).Start(context.Background(), "span")
	s.End()
	return ended
}

func attr(attrs []*commonpb.KeyValue, key string) *commonpb.AnyValue {
	for _, kv := range attrs {
		if kv.GetKey() == key {
			return kv.GetValue()
		}
	}
	return nil
}

// TestExporter_RetriesWhatTheCollectorCannotTakeForNow: a 503 is sent
// again after the backoff; a partial success is an error that says what
// was rejected; a 400 is not sent again.
func TestExporter_RetriesWhatTheCollectorCannotTakeForNow(t *testing.T) {
	defer func(s time.Duration) { retryStart = s }(retryStart)
	retryStart = time.Millisecond
	var (
		mu      sync.Mutex
		answers []func(http.ResponseWriter)
		calls   int
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls++
		if len(answers) == 0 {
			mu.Unlock()
			t.Error("more requests than answers")
			return
		}
		answer := answers[0]
		answers = answers[1:]
		mu.Unlock()
		answer(w)
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL + "/v1/traces")
	x := newExporter(u, false, nil)
	spans := oneSpan()
	unavailable := func(w http.ResponseWriter) { http.Error(w, "overloaded", http.StatusServiceUnavailable) }
	partial := func(w http.ResponseWriter) {
		out, _ := proto.Marshal(&collectortrace.ExportTraceServiceResponse{PartialSuccess: &collectortrace.ExportTracePartialSuccess{RejectedSpans: 1, ErrorMessage: "too old"}})
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.Write(out)
	}
	bad := func(w http.ResponseWriter) { http.Error(w, "bad request", http.StatusBadRequest) }

	mu.Lock()
	answers = append(answers, unavailable, unavailable, partial)
	mu.Unlock()
	err := x.export(t.Context(), resourceInfo{service: "svc"}, spans)
	mu.Lock()
	defer mu.Unlock()
	if calls != 3 || err == nil || !strings.Contains(err.Error(), "1 spans rejected: too old") {
		t.Fatalf("%d requests, error %v; want 3 and the partial success", calls, err)
	}
	calls = 0
	answers = append(answers, bad)
	mu.Unlock()
	err = x.export(t.Context(), resourceInfo{service: "svc"}, spans)
	mu.Lock()
	if calls != 1 || err == nil || !strings.Contains(err.Error(), "400") {
		t.Fatalf("%d requests, error %v; want one refused", calls, err)
	}
}

// TestExporter_GRPC: a call refused as Unavailable is made again; one
// refused as Unauthenticated is not, and its error says the code and the
// server's message.
func TestExporter_GRPC(t *testing.T) {
	defer func(s time.Duration) { retryStart = s }(retryStart)
	retryStart = time.Millisecond
	r := telemetrytest.NewGRPC(t)
	u, _ := url.Parse(r.URL)
	x := newExporter(u, true, map[string]string{"X-Team": "hermes"})
	spans := oneSpan()

	r.Busy.Store(2)
	if err := x.export(t.Context(), resourceInfo{service: "svc"}, spans); err != nil {
		t.Fatal(err)
	}
	if got := r.Spans(); len(got) != 1 || got[0].Name != "span" || r.Headers()[0]["x-team"][0] != "hermes" {
		t.Fatalf("spans %v, headers %v", got, r.Headers())
	}
	r.Fail.Store(true)
	err := x.export(t.Context(), resourceInfo{service: "svc"}, spans)
	if err == nil || !strings.Contains(err.Error(), "Unauthenticated") || !strings.Contains(err.Error(), "refusing exports") {
		t.Fatalf("error %v, want Unauthenticated with the server's message", err)
	}
}
