package telemetry

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// grpcExport is the path of the OTLP trace service's one method.
const grpcExport = "/opentelemetry.proto.collector.trace.v1.TraceService/Export"

const userAgent = "Hermes OTLP exporter"

// maxResponse bounds what is read of a collector's answer.
const maxResponse = 64 << 10

// Retries, as the OTLP exporters make them: a batch the collector could not
// take for now (HTTP 429, 502, 503, 504; gRPC Unavailable and the like) is
// sent again after a backoff that starts at retryStart, grows by half up
// to retryMax and gives up after retryFor, or when the export's context
// ends. Variables so that a test need not wait seconds.
var (
	retryStart = 5 * time.Second
	retryMax   = 30 * time.Second
	retryFor   = time.Minute
)

// exporter sends batches of spans to one collector over OTLP/HTTP
// (protobuf) or OTLP/gRPC, both through net/http.
type exporter struct {
	url     string
	grpc    bool
	headers map[string]string
	client  *http.Client

	stopOnce sync.Once
	stopped  chan struct{}
}

func newExporter(u *url.URL, grpc bool, headers map[string]string) *exporter {
	t := http.DefaultTransport.(*http.Transport).Clone()
	target := *u
	if grpc {
		// gRPC is HTTP/2 only: over TLS for https, with prior knowledge
		// (h2c) for http, where no proxy can carry it.
		var p http.Protocols
		p.SetHTTP2(true)
		p.SetUnencryptedHTTP2(true)
		t.Protocols = &p
		if u.Scheme == "http" {
			t.Proxy = nil
		}
		// The endpoint names the server; the path is the service's.
		target = url.URL{Scheme: u.Scheme, Host: u.Host, Path: grpcExport}
	}
	return &exporter{
		url: target.String(), grpc: grpc, headers: headers,
		client:  &http.Client{Transport: t, Timeout: 10 * time.Second},
		stopped: make(chan struct{}),
	}
}

// export sends spans as one request, again while the collector says to
// retry, until ctx ends or the exporter is shut down.
func (x *exporter) export(ctx context.Context, res resourceInfo, spans []*spanData) error {
	if len(spans) == 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-x.stopped:
			cancel()
		case <-ctx.Done():
		}
	}()
	body := encodeSpans(res, spans)
	delay, giveUp := retryStart, time.Now().Add(retryFor)
	for {
		after, again, err := x.send(ctx, body)
		if err == nil || !again {
			return err
		}
		// Full jitter around delay, as the OTLP exporters' backoff.
		wait := delay/2 + rand.N(delay+1)
		wait = max(wait, after)
		if time.Now().Add(wait).After(giveUp) {
			return err
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("%w (then %w)", err, ctx.Err())
		case <-t.C:
		}
		delay = min(delay*3/2, retryMax)
	}
}

// shutdown ends the exports under way and lets go of the connections.
func (x *exporter) shutdown() {
	x.stopOnce.Do(func() { close(x.stopped) })
	x.client.CloseIdleConnections()
}

// send makes one request; again says whether it is worth making again, and
// after how long at the least.
func (x *exporter) send(ctx context.Context, body []byte) (after time.Duration, again bool, err error) {
	if x.grpc {
		return x.sendGRPC(ctx, body)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, x.url, bytes.NewReader(body))
	if err != nil {
		return 0, false, err
	}
	for k, v := range x.headers {
		req.Header.Set(k, v)
	}
	req.Header.Set("User-Agent", userAgent)
	req.Header.Set("Content-Type", "application/x-protobuf")
	resp, err := x.client.Do(req)
	if err != nil {
		return 0, false, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse))
	if resp.StatusCode/100 == 2 {
		if err != nil || resp.Header.Get("Content-Type") != "application/x-protobuf" {
			return 0, false, nil // taken; what it said of it cannot be read
		}
		return 0, false, rejected(data)
	}
	err = fmt.Errorf("%s: %s", resp.Status, excerpt(data))
	switch resp.StatusCode {
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return retryAfter(resp.Header), true, err
	}
	return 0, false, err
}

// sendGRPC makes one unary call of TraceService/Export: the request in one
// length-prefixed message, the status in the trailers (or, for a call
// refused at once, in the headers).
func (x *exporter) sendGRPC(ctx context.Context, body []byte) (time.Duration, bool, error) {
	frame := make([]byte, 5, 5+len(body))
	binary.BigEndian.PutUint32(frame[1:], uint32(len(body)))
	frame = append(frame, body...)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, x.url, bytes.NewReader(frame))
	if err != nil {
		return 0, false, err
	}
	for k, v := range x.headers {
		req.Header.Set(k, v)
	}
	req.Header.Set("User-Agent", userAgent)
	req.Header.Set("Content-Type", "application/grpc")
	req.Header.Set("TE", "trailers")
	if d, ok := ctx.Deadline(); ok {
		req.Header.Set("Grpc-Timeout", strconv.FormatInt(max(time.Until(d).Milliseconds(), 1), 10)+"m")
	}
	resp, err := x.client.Do(req)
	if err != nil {
		return 0, true, err // Unavailable, as gRPC says of a connection that failed
	}
	defer resp.Body.Close()
	data, readErr := io.ReadAll(io.LimitReader(resp.Body, maxResponse))
	if resp.StatusCode != http.StatusOK {
		err := fmt.Errorf("%s: %s", resp.Status, excerpt(data))
		switch resp.StatusCode {
		case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			return 0, true, err
		}
		return 0, false, err
	}
	status := resp.Trailer.Get("Grpc-Status")
	msg := resp.Trailer.Get("Grpc-Message")
	if status == "" {
		status, msg = resp.Header.Get("Grpc-Status"), resp.Header.Get("Grpc-Message")
	}
	if status == "" {
		if readErr != nil {
			return 0, true, readErr
		}
		return 0, false, errors.New("the server answered without a gRPC status: is it a gRPC collector?")
	}
	code, err := strconv.Atoi(status)
	if err != nil {
		return 0, false, fmt.Errorf("gRPC status %q", status)
	}
	if code != 0 {
		if m, err := url.PathUnescape(msg); err == nil {
			msg = m
		}
		return 0, retryableCode(code), fmt.Errorf("rpc error: code = %s desc = %s", codeName(code), msg)
	}
	// A response message: its 5-byte prefix, then ExportTraceServiceResponse.
	if len(data) >= 5 && data[0] == 0 {
		if n := binary.BigEndian.Uint32(data[1:5]); int(n) <= len(data)-5 {
			return 0, false, rejected(data[5 : 5+n])
		}
	}
	return 0, false, nil
}

// rejected is the error of a response that took only some of the spans.
func rejected(resp []byte) error {
	n, msg := partialSuccess(resp)
	if n == 0 && msg == "" {
		return nil
	}
	return fmt.Errorf("%d spans rejected: %s", n, msg)
}

// retryableCode says whether a call that ended with gRPC status code is
// worth making again (the codes the OTLP exporters retry; ResourceExhausted
// only with a delay the server gives, which is not read here).
func retryableCode(code int) bool {
	switch code {
	case 1, 4, 10, 11, 14, 15: // Canceled, DeadlineExceeded, Aborted, OutOfRange, Unavailable, DataLoss
		return true
	}
	return false
}

var codeNames = [...]string{"OK", "Canceled", "Unknown", "InvalidArgument", "DeadlineExceeded", "NotFound",
	"AlreadyExists", "PermissionDenied", "ResourceExhausted", "FailedPrecondition", "Aborted", "OutOfRange",
	"Unimplemented", "Internal", "Unavailable", "DataLoss", "Unauthenticated"}

func codeName(code int) string {
	if code >= 0 && code < len(codeNames) {
		return codeNames[code]
	}
	return "Code(" + strconv.Itoa(code) + ")"
}

// retryAfter is a Retry-After of seconds; 0 for none or a date.
func retryAfter(h http.Header) time.Duration {
	s, err := strconv.Atoi(h.Get("Retry-After"))
	if err != nil || s < 0 {
		return 0
	}
	return time.Duration(s) * time.Second
}

// excerpt is the start of a collector's answer, for an error message.
func excerpt(body []byte) string {
	s := strings.TrimSpace(string(body))
	if s == "" {
		return "(empty)"
	}
	if len(s) > 512 {
		s = strings.ToValidUTF8(s[:512], "") + "…"
	}
	return s
}
