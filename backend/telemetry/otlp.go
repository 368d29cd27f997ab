package telemetry

import (
	"encoding/binary"
	"errors"
	"math"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// The OTLP trace request, encoded here as the protobuf wire format rather
// than through the generated OTLP packages: those, protobuf's runtime and
// gRPC's register themselves at the start of every process of this binary
// (about 2 ms of CPU in `hermes version`, and 11 MB of the binary), while a
// process exports traces only with [telemetry] set. The field numbers are
// opentelemetry-proto's (collector/trace/v1, trace/v1, common/v1,
// resource/v1); the encoding is what the OTLP exporters' transform gives,
// and telemetrytest decodes it with the generated packages.

// Wire types of the protobuf encoding.
const (
	wireVarint  = 0
	wireFixed64 = 1
	wireBytes   = 2
	wireFixed32 = 5
)

// Span flags (trace/v1 SpanFlags): whether the parent's remoteness is known,
// and whether it is remote.
const (
	flagHasIsRemote = 0x100
	flagIsRemote    = 0x200
)

// resourceInfo is what the spans of one exporter say of their source.
type resourceInfo struct {
	service, schemaURL string
}

// scopeName is the instrumentation scope of every span.
const scopeName = "hermes/backend/telemetry"

// encodeSpans returns the ExportTraceServiceRequest of spans, all of one
// resource and one scope.
func encodeSpans(res resourceInfo, spans []*spanData) []byte {
	return embed(nil, 1, func(b []byte) []byte { // ResourceSpans
		b = embed(b, 1, func(b []byte) []byte { // Resource
			return keyValue(b, 1, attribute.String("service.name", res.service))
		})
		b = embed(b, 2, func(b []byte) []byte { // ScopeSpans
			b = embed(b, 1, func(b []byte) []byte { return stringField(b, 1, scopeName) })
			for _, s := range spans {
				b = embed(b, 2, func(b []byte) []byte { return encodeSpan(b, s) })
			}
			return b
		})
		return stringField(b, 3, res.schemaURL)
	})
}

// encodeSpan is a Span.
func encodeSpan(b []byte, s *spanData) []byte {
	tid, sid := s.sc.TraceID(), s.sc.SpanID()
	b = bytesField(b, 1, tid[:])
	b = bytesField(b, 2, sid[:])
	b = stringField(b, 3, s.sc.TraceState().String())
	if psid := s.parent.SpanID(); psid.IsValid() {
		b = bytesField(b, 4, psid[:])
	}
	b = stringField(b, 5, s.name)
	b = varintField(b, 6, uint64(spanKind(s.kind)))
	b = fixed64Field(b, 7, unixNano(s.start.UnixNano()))
	b = fixed64Field(b, 8, unixNano(s.end.UnixNano()))
	for _, kv := range s.attrs {
		b = keyValue(b, 9, kv)
	}
	b = varintField(b, 10, uint64(clampUint32(s.droppedAttrs)))
	for _, e := range s.events {
		b = embed(b, 11, func(b []byte) []byte { // Span.Event
			b = fixed64Field(b, 1, unixNano(e.at.UnixNano()))
			b = stringField(b, 2, e.name)
			for _, kv := range e.attrs {
				b = keyValue(b, 3, kv)
			}
			return varintField(b, 4, uint64(clampUint32(e.dropped)))
		})
	}
	b = varintField(b, 12, uint64(clampUint32(s.droppedEvents)))
	for _, l := range s.links {
		b = embed(b, 13, func(b []byte) []byte { // Span.Link
			ltid, lsid := l.sc.TraceID(), l.sc.SpanID()
			b = bytesField(b, 1, ltid[:])
			b = bytesField(b, 2, lsid[:])
			b = stringField(b, 3, l.sc.TraceState().String())
			for _, kv := range l.attrs {
				b = keyValue(b, 4, kv)
			}
			b = varintField(b, 5, uint64(clampUint32(l.dropped)))
			return fixed32Field(b, 6, spanFlags(l.sc.TraceFlags(), l.sc))
		})
	}
	b = varintField(b, 14, uint64(clampUint32(s.droppedLinks)))
	b = embed(b, 15, func(b []byte) []byte { // Status
		b = stringField(b, 2, s.desc)
		return varintField(b, 3, uint64(statusCode(s.status)))
	})
	return fixed32Field(b, 16, spanFlags(s.sc.TraceFlags(), s.parent))
}

func spanFlags(tf trace.TraceFlags, parent trace.SpanContext) uint32 {
	flags := uint32(tf) | flagHasIsRemote
	if parent.IsRemote() {
		flags |= flagIsRemote
	}
	return flags
}

// spanKind is trace/v1 Span.SpanKind.
func spanKind(k trace.SpanKind) int {
	switch k {
	case trace.SpanKindInternal:
		return 1
	case trace.SpanKindServer:
		return 2
	case trace.SpanKindClient:
		return 3
	case trace.SpanKindProducer:
		return 4
	case trace.SpanKindConsumer:
		return 5
	}
	return 0
}

// statusCode is trace/v1 Status.StatusCode.
func statusCode(c codes.Code) int {
	switch c {
	case codes.Ok:
		return 1
	case codes.Error:
		return 2
	}
	return 0
}

// keyValue is a common/v1 KeyValue as field.
func keyValue(b []byte, field int, kv attribute.KeyValue) []byte {
	return embed(b, field, func(b []byte) []byte {
		b = stringField(b, 1, string(kv.Key))
		return embed(b, 2, func(b []byte) []byte { return anyValue(b, kv.Value) })
	})
}

// anyValue is the body of a common/v1 AnyValue. Its value is a oneof, so
// a zero value (0, false, "") is written, not left out.
func anyValue(b []byte, v attribute.Value) []byte {
	switch v.Type() {
	case attribute.STRING:
		return appendString(appendTag(b, 1, wireBytes), v.AsString())
	case attribute.BOOL:
		n := uint64(0)
		if v.AsBool() {
			n = 1
		}
		return binary.AppendUvarint(appendTag(b, 2, wireVarint), n)
	case attribute.INT64:
		return binary.AppendUvarint(appendTag(b, 3, wireVarint), uint64(v.AsInt64()))
	case attribute.FLOAT64:
		return binary.LittleEndian.AppendUint64(appendTag(b, 4, wireFixed64), math.Float64bits(v.AsFloat64()))
	case attribute.BYTESLICE:
		return appendBytes(appendTag(b, 7, wireBytes), v.AsByteSlice())
	case attribute.MAP:
		return embed(b, 6, func(b []byte) []byte { // KeyValueList
			for _, kv := range v.AsMap() {
				b = keyValue(b, 1, kv)
			}
			return b
		})
	case attribute.EMPTY:
		return b
	}
	var items []attribute.Value
	switch v.Type() {
	case attribute.STRINGSLICE:
		for _, s := range v.AsStringSlice() {
			items = append(items, attribute.StringValue(s))
		}
	case attribute.BOOLSLICE:
		for _, x := range v.AsBoolSlice() {
			items = append(items, attribute.BoolValue(x))
		}
	case attribute.INT64SLICE:
		for _, x := range v.AsInt64Slice() {
			items = append(items, attribute.Int64Value(x))
		}
	case attribute.FLOAT64SLICE:
		for _, x := range v.AsFloat64Slice() {
			items = append(items, attribute.Float64Value(x))
		}
	case attribute.SLICE:
		items = v.AsSlice()
	default:
		return appendString(appendTag(b, 1, wireBytes), "INVALID")
	}
	return embed(b, 5, func(b []byte) []byte { // ArrayValue
		for _, item := range items {
			b = embed(b, 1, func(b []byte) []byte { return anyValue(b, item) })
		}
		return b
	})
}

// partialSuccess reads an ExportTraceServiceResponse: the spans the
// collector rejected and why. A response it cannot read says nothing.
func partialSuccess(b []byte) (rejected int64, msg string) {
	body, ok := field(b, 1, wireBytes)
	if !ok {
		return 0, ""
	}
	if v, ok := field(body, 1, wireVarint); ok {
		n, _ := binary.Uvarint(v)
		rejected = int64(n)
	}
	if v, ok := field(body, 2, wireBytes); ok {
		msg = string(v)
	}
	return rejected, msg
}

var errWire = errors.New("malformed protobuf")

// field returns the last occurrence of field num with wire type wt in b:
// a varint's bytes or a length-delimited field's contents.
func field(b []byte, num int, wt int) (out []byte, found bool) {
	for len(b) > 0 {
		tag, n := binary.Uvarint(b)
		if n <= 0 {
			return out, found
		}
		b = b[n:]
		var v []byte
		var err error
		v, b, err = skip(b, int(tag&7))
		if err != nil {
			return out, found
		}
		if int(tag>>3) == num && int(tag&7) == wt {
			out, found = v, true
		}
	}
	return out, found
}

// skip splits the value of wire type wt off the front of b.
func skip(b []byte, wt int) (value, rest []byte, err error) {
	switch wt {
	case wireVarint:
		_, n := binary.Uvarint(b)
		if n <= 0 {
			return nil, nil, errWire
		}
		return b[:n], b[n:], nil
	case wireFixed64:
		if len(b) < 8 {
			return nil, nil, errWire
		}
		return b[:8], b[8:], nil
	case wireFixed32:
		if len(b) < 4 {
			return nil, nil, errWire
		}
		return b[:4], b[4:], nil
	case wireBytes:
		l, n := binary.Uvarint(b)
		if n <= 0 || l > uint64(len(b)-n) {
			return nil, nil, errWire
		}
		return b[n : n+int(l)], b[n+int(l):], nil
	}
	return nil, nil, errWire
}

func appendTag(b []byte, field, wt int) []byte {
	return binary.AppendUvarint(b, uint64(field)<<3|uint64(wt))
}

func appendBytes(b, v []byte) []byte {
	return append(binary.AppendUvarint(b, uint64(len(v))), v...)
}

func appendString(b []byte, v string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(v))), v...)
}

// embed appends field as an embedded message whose body body appends;
// the body is written in place, then its length put in front of it.
func embed(b []byte, field int, body func([]byte) []byte) []byte {
	b = appendTag(b, field, wireBytes)
	start := len(b)
	b = body(b)
	n := len(b) - start
	var size [binary.MaxVarintLen64]byte
	l := binary.PutUvarint(size[:], uint64(n))
	b = append(b, size[:l]...)
	copy(b[start+l:], b[start:start+n])
	copy(b[start:], size[:l])
	return b
}

// The scalar fields below leave out a zero value, as proto3 does.

func stringField(b []byte, field int, v string) []byte {
	if v == "" {
		return b
	}
	return appendString(appendTag(b, field, wireBytes), v)
}

func bytesField(b []byte, field int, v []byte) []byte {
	if len(v) == 0 {
		return b
	}
	return appendBytes(appendTag(b, field, wireBytes), v)
}

func varintField(b []byte, field int, v uint64) []byte {
	if v == 0 {
		return b
	}
	return binary.AppendUvarint(appendTag(b, field, wireVarint), v)
}

func fixed64Field(b []byte, field int, v uint64) []byte {
	if v == 0 {
		return b
	}
	return binary.LittleEndian.AppendUint64(appendTag(b, field, wireFixed64), v)
}

func fixed32Field(b []byte, field int, v uint32) []byte {
	if v == 0 {
		return b
	}
	return binary.LittleEndian.AppendUint32(appendTag(b, field, wireFixed32), v)
}

func unixNano(n int64) uint64 { return uint64(max(0, n)) }

func clampUint32(v int) uint32 {
	return uint32(min(max(v, 0), math.MaxUint32))
}
