package telemetry

import (
	"context"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/embedded"
)

// The spans of a trace are made here, behind OpenTelemetry's trace API,
// rather than by its SDK: the SDK's packages (its resource detection, its
// own metrics, the semantic conventions they bring, their loggers) cost
// every process of this binary 0.8 ms of CPU at start, while spans are made
// only with [telemetry] set. What Trace needs of a tracer is here: every
// span is sampled, ids come from runIDs, attributes are kept once per key
// (the last value) and cut at contentLimit characters.

// maxAttrs, maxEvents and maxLinks bound one span, as the SDK's defaults
// did; what is past them is counted as dropped.
const (
	maxAttrs  = 128
	maxEvents = 128
	maxLinks  = 128
)

// tracer starts spans whose ended data go to end.
type tracer struct {
	embedded.Tracer
	end func(*spanData)
}

var _ trace.Tracer = (*tracer)(nil)

func (tr *tracer) Start(ctx context.Context, name string, opts ...trace.SpanStartOption) (context.Context, trace.Span) {
	cfg := trace.NewSpanStartConfig(opts...)
	parent := trace.SpanContextFromContext(ctx)
	if cfg.NewRoot() {
		parent = trace.SpanContext{}
	}
	var tid trace.TraceID
	var sid trace.SpanID
	if parent.IsValid() {
		tid, sid = parent.TraceID(), runIDs{}.NewSpanID(ctx, parent.TraceID())
	} else {
		tid, sid = runIDs{}.NewIDs(ctx)
	}
	kind := cfg.SpanKind()
	if kind == trace.SpanKindUnspecified {
		kind = trace.SpanKindInternal
	}
	start := cfg.Timestamp()
	if start.IsZero() {
		start = time.Now()
	}
	s := &span{tr: tr, d: spanData{
		name: name, kind: kind, start: start, parent: parent,
		sc: trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid, TraceFlags: trace.FlagsSampled, TraceState: parent.TraceState()}),
	}}
	s.setAttributes(cfg.Attributes())
	for _, l := range cfg.Links() {
		s.addLink(l)
	}
	return trace.ContextWithSpan(ctx, s), s
}

// spanData is a span as it is exported.
type spanData struct {
	name          string
	kind          trace.SpanKind
	sc, parent    trace.SpanContext
	start, end    time.Time
	attrs         []attribute.KeyValue
	events        []spanEvent
	links         []spanLink
	status        codes.Code
	desc          string
	droppedAttrs  int
	droppedEvents int
	droppedLinks  int
	attrIndex     map[attribute.Key]int // where each key is in attrs, while recorded
}

type spanEvent struct {
	name    string
	at      time.Time
	attrs   []attribute.KeyValue
	dropped int
}

type spanLink struct {
	sc      trace.SpanContext
	attrs   []attribute.KeyValue
	dropped int
}

// span is a span being recorded, until End.
type span struct {
	embedded.Span
	tr    *tracer
	mu    sync.Mutex
	d     spanData
	ended bool
}

var _ trace.Span = (*span)(nil)

func (s *span) End(opts ...trace.SpanEndOption) {
	cfg := trace.NewSpanEndConfig(opts...)
	s.mu.Lock()
	if s.ended {
		s.mu.Unlock()
		return
	}
	s.ended = true
	s.d.end = cfg.Timestamp()
	if s.d.end.IsZero() {
		s.d.end = time.Now()
	}
	d := s.d
	d.attrIndex = nil
	s.mu.Unlock()
	s.tr.end(&d)
}

func (s *span) AddEvent(name string, opts ...trace.EventOption) {
	cfg := trace.NewEventConfig(opts...)
	attrs, dropped := limited(cfg.Attributes())
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended {
		return
	}
	if len(s.d.events) >= maxEvents {
		s.d.droppedEvents++
		return
	}
	s.d.events = append(s.d.events, spanEvent{name: name, at: cfg.Timestamp(), attrs: attrs, dropped: dropped})
}

func (s *span) AddLink(l trace.Link) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.ended {
		s.addLink(l)
	}
}

func (s *span) addLink(l trace.Link) {
	if !l.SpanContext.IsValid() {
		return
	}
	if len(s.d.links) >= maxLinks {
		s.d.droppedLinks++
		return
	}
	attrs, dropped := limited(l.Attributes)
	s.d.links = append(s.d.links, spanLink{sc: l.SpanContext, attrs: attrs, dropped: dropped})
}

func (s *span) IsRecording() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.ended
}

// RecordError is an "exception" event, as OpenTelemetry's conventions
// have it.
func (s *span) RecordError(err error, opts ...trace.EventOption) {
	if err == nil {
		return
	}
	opts = append(opts, trace.WithAttributes(attribute.String("exception.message", err.Error())))
	s.AddEvent("exception", opts...)
}

func (s *span) SpanContext() trace.SpanContext { return s.d.sc }

// SetStatus keeps Ok over any later status, and a description only with
// Error, as the API says.
func (s *span) SetStatus(code codes.Code, description string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended || code == codes.Unset || s.d.status == codes.Ok {
		return
	}
	s.d.status, s.d.desc = code, ""
	if code == codes.Error {
		s.d.desc = description
	}
}

func (s *span) SetName(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.ended {
		s.d.name = name
	}
}

func (s *span) SetAttributes(kv ...attribute.KeyValue) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.ended {
		s.setAttributes(kv)
	}
}

// setAttributes keeps one value per key, the last, where the key was first
// set.
func (s *span) setAttributes(kv []attribute.KeyValue) {
	for _, a := range kv {
		if !a.Valid() {
			s.d.droppedAttrs++
			continue
		}
		a = cut(a)
		if i, ok := s.d.attrIndex[a.Key]; ok {
			s.d.attrs[i] = a
			continue
		}
		if len(s.d.attrs) >= maxAttrs {
			s.d.droppedAttrs++
			continue
		}
		if s.d.attrIndex == nil {
			s.d.attrIndex = map[attribute.Key]int{}
		}
		s.d.attrIndex[a.Key] = len(s.d.attrs)
		s.d.attrs = append(s.d.attrs, a)
	}
}

func (s *span) TracerProvider() trace.TracerProvider { return provider{tr: s.tr} }

// provider is the TracerProvider a span names: every tracer it gives is
// the one the span came from.
type provider struct {
	embedded.TracerProvider
	tr *tracer
}

func (p provider) Tracer(string, ...trace.TracerOption) trace.Tracer { return p.tr }

// limited is kv cut and bounded as a span's attributes are, with the count
// of those left out.
func limited(kv []attribute.KeyValue) ([]attribute.KeyValue, int) {
	out := make([]attribute.KeyValue, 0, min(len(kv), maxAttrs))
	dropped := 0
	for _, a := range kv {
		if !a.Valid() || len(out) >= maxAttrs {
			dropped++
			continue
		}
		out = append(out, cut(a))
	}
	return out, dropped
}

// cut shortens a string value, or each string of a list, to contentLimit
// characters.
func cut(a attribute.KeyValue) attribute.KeyValue {
	switch a.Value.Type() {
	case attribute.STRING:
		if s := a.Value.AsString(); len(s) > contentLimit {
			a.Value = attribute.StringValue(cutString(s))
		}
	case attribute.STRINGSLICE:
		list := a.Value.AsStringSlice()
		for i, s := range list {
			if len(s) > contentLimit {
				list[i] = cutString(s)
				a.Value = attribute.StringSliceValue(list)
			}
		}
	}
	return a
}

func cutString(s string) string {
	n := 0
	for i := range s {
		if n == contentLimit {
			return s[:i]
		}
		n++
	}
	return s
}
