// Package telemetrytest is an OTLP trace receiver on loopback, over HTTP
// (protobuf) or gRPC, that decodes what it gets with the protocol's own Go
// packages, for tests of the exporter. Like net/http/httptest it is not a
// test file, but production code never imports it.
package telemetrytest

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// Span is one received span with the service.name of its resource.
type Span struct {
	Service string
	*tracepb.Span
}

// Receiver collects the spans exported to it. URL is what an exporter's
// endpoint is set to.
type Receiver struct {
	URL string
	// Fail, while set, refuses every export as a collector refuses a wrong
	// key (HTTP 401, gRPC Unauthenticated): not worth retrying.
	Fail atomic.Bool
	// Busy is how many of the next exports are refused as a collector
	// refuses what it cannot take for now (HTTP 503, gRPC Unavailable):
	// worth retrying.
	Busy atomic.Int32

	mu      sync.Mutex
	spans   []Span
	raw     [][]byte
	headers []map[string][]string
	changed chan struct{} // closed and replaced at every export taken
}

func newReceiver() *Receiver { return &Receiver{changed: make(chan struct{})} }

// NewHTTP starts an OTLP/HTTP receiver (protobuf, POST /v1/traces).
func NewHTTP(t testing.TB) *Receiver {
	r := newReceiver()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Method != http.MethodPost || req.URL.Path != "/v1/traces" || req.Header.Get("Content-Type") != "application/x-protobuf" {
			http.Error(w, "not an OTLP/HTTP protobuf trace export", http.StatusNotFound)
			return
		}
		body, err := io.ReadAll(req.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if r.Fail.Load() {
			http.Error(w, "telemetrytest: refusing exports", http.StatusUnauthorized)
			return
		}
		if r.Busy.Add(-1) >= 0 {
			http.Error(w, "telemetrytest: busy", http.StatusServiceUnavailable)
			return
		}
		var msg collectortrace.ExportTraceServiceRequest
		if err := proto.Unmarshal(body, &msg); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.take(&msg, body, req.Header)
		out, _ := proto.Marshal(&collectortrace.ExportTraceServiceResponse{})
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.Write(out)
	}))
	t.Cleanup(srv.Close)
	r.URL = srv.URL
	return r
}

// NewGRPC starts an OTLP/gRPC receiver.
func NewGRPC(t testing.TB) *Receiver {
	r := newReceiver()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	collectortrace.RegisterTraceServiceServer(srv, grpcService{r: r})
	go func() { _ = srv.Serve(lis) }() // until Stop
	t.Cleanup(srv.Stop)
	r.URL = "http://" + lis.Addr().String()
	return r
}

type grpcService struct {
	collectortrace.UnimplementedTraceServiceServer
	r *Receiver
}

func (s grpcService) Export(ctx context.Context, msg *collectortrace.ExportTraceServiceRequest) (*collectortrace.ExportTraceServiceResponse, error) {
	if s.r.Fail.Load() {
		return nil, status.Error(codes.Unauthenticated, "telemetrytest: refusing exports")
	}
	if s.r.Busy.Add(-1) >= 0 {
		return nil, status.Error(codes.Unavailable, "telemetrytest: busy")
	}
	raw, err := proto.Marshal(msg)
	if err != nil {
		return nil, err
	}
	md, _ := metadata.FromIncomingContext(ctx)
	s.r.take(msg, raw, md)
	return &collectortrace.ExportTraceServiceResponse{}, nil
}

func (r *Receiver) take(msg *collectortrace.ExportTraceServiceRequest, raw []byte, headers map[string][]string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rs := range msg.GetResourceSpans() {
		service := ""
		for _, kv := range rs.GetResource().GetAttributes() {
			if kv.GetKey() == "service.name" {
				service = kv.GetValue().GetStringValue()
			}
		}
		for _, ss := range rs.GetScopeSpans() {
			for _, s := range ss.GetSpans() {
				r.spans = append(r.spans, Span{Service: service, Span: s})
			}
		}
	}
	r.raw = append(r.raw, raw)
	r.headers = append(r.headers, headers)
	close(r.changed)
	r.changed = make(chan struct{})
}

// Spans returns the spans received so far.
func (r *Receiver) Spans() []Span {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Span(nil), r.spans...)
}

// Raw returns every export's body as received, for looking for what must
// not be in any of them.
func (r *Receiver) Raw() [][]byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([][]byte(nil), r.raw...)
}

// Headers returns the headers (gRPC metadata, lower-cased) of each export.
func (r *Receiver) Headers() []map[string][]string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]map[string][]string(nil), r.headers...)
}

// Wait returns the spans once done says they are all there, at the latest
// after 10 seconds, when it fails the test.
func (r *Receiver) Wait(t testing.TB, done func([]Span) bool) []Span {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		r.mu.Lock()
		spans, changed := append([]Span(nil), r.spans...), r.changed
		r.mu.Unlock()
		if done(spans) {
			return spans
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("telemetrytest: the spans did not arrive; got %d", len(spans))
			return nil
		}
	}
}

// Attr returns the value of attribute key, nil when there is none.
func Attr(attrs []*commonpb.KeyValue, key string) *commonpb.AnyValue {
	for _, kv := range attrs {
		if kv.GetKey() == key {
			return kv.GetValue()
		}
	}
	return nil
}
