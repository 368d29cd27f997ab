package telemetry

import (
	"context"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// TestSpan_AsTheSDKMadeThem: a span keeps one value per attribute key (the
// last, where the key was first set), cuts a long value to contentLimit
// characters, on events too, keeps an Ok status over a later error, takes
// nothing after End, and is handed on once.
func TestSpan_AsTheSDKMadeThem(t *testing.T) {
	var ended []*spanData
	tr := &tracer{end: func(d *spanData) { ended = append(ended, d) }}
	long := strings.Repeat("長", contentLimit+10)
	at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	ctx, s := tr.Start(context.Background(), "run", trace.WithTimestamp(at), trace.WithAttributes(attribute.String("a", "1"), attribute.Int("b", 2)))
	s.SetAttributes(attribute.String("a", "3"), attribute.String("long", long))
	s.AddEvent("e", trace.WithTimestamp(at), trace.WithAttributes(attribute.String("text", long)))
	s.SetStatus(codes.Ok, "ignored")
	s.SetStatus(codes.Error, "too late")
	_, child := tr.Start(ctx, "child")
	child.End()
	s.End(trace.WithTimestamp(at.Add(time.Second)))
	s.SetAttributes(attribute.String("after", "end"))
	s.End()

	if len(ended) != 2 {
		t.Fatalf("%d spans ended, want 2", len(ended))
	}
	c, d := ended[0], ended[1]
	if c.parent.SpanID() != d.sc.SpanID() || c.sc.TraceID() != d.sc.TraceID() || d.parent.IsValid() {
		t.Fatal("the child is not under the run")
	}
	if len(d.attrs) != 3 || d.attrs[0] != attribute.String("a", "3") || d.attrs[1] != attribute.Int("b", 2) {
		t.Fatalf("attributes %v", d.attrs)
	}
	if got := d.attrs[2].Value.AsString(); utf8.RuneCountInString(got) != contentLimit || !strings.HasPrefix(long, got) {
		t.Fatalf("the long value kept %d characters", utf8.RuneCountInString(got))
	}
	if got := d.events[0].attrs[0].Value.AsString(); utf8.RuneCountInString(got) != contentLimit {
		t.Fatalf("the event's long value kept %d characters", utf8.RuneCountInString(got))
	}
	if d.status != codes.Ok || d.desc != "" || !d.end.Equal(at.Add(time.Second)) || d.kind != trace.SpanKindInternal {
		t.Fatalf("status %v %q, end %v, kind %v", d.status, d.desc, d.end, d.kind)
	}
}

// TestBatcher_DropsPastItsQueue: ending a span never waits for a collector
// that does not answer; past queueSize waiting spans, spans are dropped.
func TestBatcher_DropsPastItsQueue(t *testing.T) {
	b := &batcher{full: make(chan struct{}, 1)} // no loop: nothing is sent
	for range queueSize + 10 {
		b.add(&spanData{})
	}
	if len(b.queue) != queueSize {
		t.Fatalf("%d spans queued, want %d", len(b.queue), queueSize)
	}
}
