// Package telemetry exports runs as OpenTelemetry traces over OTLP (HTTP or
// gRPC), for Jaeger, Grafana Tempo or Langfuse: a root span per run, a span
// per iteration, child spans for each model call (GenAI semantic
// conventions) and tool call, span events for guards, approvals and
// compressions, and a link from a fork to the run it came from.
//
// Spans are built from a run's events alone, with the events' own times, so
// a run log read back is exported as the live run was. Exporting never
// slows or fails a run: spans go through a batch processor whose bounded
// queue drops what does not fit, and an export that fails is told once.
package telemetry

import (
	"context"
	"net/url"
	"strings"
	"time"

	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
	"go.opentelemetry.io/otel/trace"

	"hermes/backend/i18n"
	"hermes/backend/llm"
)

// Protocols an Exporter speaks.
const (
	ProtocolHTTP = "http"
	ProtocolGRPC = "grpc"
)

// Options configure an Exporter.
type Options struct {
	// Endpoint is the collector's base URL (http(s)://host:port, with an
	// optional path); OTLP/HTTP posts to its /v1/traces.
	Endpoint string
	// Protocol is ProtocolHTTP (the default) or ProtocolGRPC.
	Protocol string
	// Headers go with every export (an Authorization for Langfuse). They
	// are never logged nor put in an error.
	Headers map[string]string
	// ServiceName is the traces' service.name; "" is "hermes".
	ServiceName string
	// IncludeContent exports prompts, reasoning, tool arguments and
	// results; otherwise only names, timings, token counts and statuses.
	IncludeContent bool
	// OnError hears of an export that failed, once until one succeeds
	// again; nil drops it. Its error never holds a header.
	OnError func(error)
	// BatchTimeout is how long a span may wait to be sent with others;
	// 0 is 2 seconds.
	BatchTimeout time.Duration
}

// queueSize bounds the spans waiting to be exported; past it new spans
// are dropped rather than slowing the run that ends them.
const queueSize = 4096

// contentLimit caps each exported attribute's value, in bytes: a prompt or
// a tool's result can be far larger than a collector takes in one span.
const contentLimit = 32 << 10

// Exporter sends the traces of runs to one OTLP endpoint. It is safe for
// concurrent use.
type Exporter struct {
	b       *batcher
	tracer  trace.Tracer
	content bool
}

// New returns an exporter to o.Endpoint. It does not connect: the first
// batch does, off the runs' path.
func New(ctx context.Context, o Options) (*Exporter, error) {
	if o.Endpoint == "" {
		return nil, i18n.Wrap(ErrNoEndpoint, "telemetry.no_endpoint")
	}
	exp, err := newSpanExporter(o)
	if err != nil {
		return nil, err
	}
	service := o.ServiceName
	if service == "" {
		service = "hermes"
	}
	interval := o.BatchTimeout
	if interval <= 0 {
		interval = 2 * time.Second
	}
	b := newBatcher(exp, resourceInfo{service: service, schemaURL: semconv.SchemaURL}, interval, o.OnError)
	return &Exporter{b: b, tracer: &tracer{end: b.add}, content: o.IncludeContent}, nil
}

func newSpanExporter(o Options) (*exporter, error) {
	u, err := url.Parse(o.Endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, i18n.Wrap(ErrEndpoint, "telemetry.endpoint", llm.RedactURL(o.Endpoint))
	}
	switch o.Protocol {
	case ProtocolGRPC:
		return newExporter(u, true, o.Headers), nil
	case ProtocolHTTP, "":
		// The endpoint is the collector's base, as OTEL_EXPORTER_OTLP_ENDPOINT
		// is: traces go to its /v1/traces.
		if !strings.HasSuffix(u.Path, "/v1/traces") {
			u.Path = strings.TrimRight(u.Path, "/") + "/v1/traces"
		}
		return newExporter(u, false, o.Headers), nil
	}
	return nil, i18n.Wrap(ErrProtocol, "telemetry.protocol", o.Protocol)
}

// Run returns the trace of one run: an event.Sink that turns the run's
// events, in seq order, into spans. redact, when set, scrubs every exported
// text once more (the events are scrubbed already by the run's emitter).
func (x *Exporter) Run(redact func([]byte) []byte) *Trace {
	return newTrace(x.tracer, x.content, redact)
}

// Close sends the spans still queued and stops the exporter; ctx bounds the
// wait. Spans of runs still going are not sent.
func (x *Exporter) Close(ctx context.Context) error {
	return x.b.close(ctx)
}
