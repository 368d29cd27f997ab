package telemetry

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"math/rand/v2"

	"go.opentelemetry.io/otel/trace"
)

// A run's trace id and its root span's id are derived from the run's id,
// so every leg of a resumed run joins one trace, and a fork links to the
// root of its source run without either process knowing the other's spans:
// a replayed log gets the same ids as the live run did.

// rootOf is the span context of run id's root span.
func rootOf(runID string) trace.SpanContext {
	sum := sha256.Sum256([]byte("hermes run " + runID))
	var tid trace.TraceID
	var sid trace.SpanID
	copy(tid[:], sum[:16])
	copy(sid[:], sum[16:24])
	return trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid, TraceFlags: trace.FlagsSampled, Remote: true})
}

type rootKey struct{}

// withRoot makes the next root span started from ctx the root of runID.
func withRoot(ctx context.Context, runID string) context.Context {
	return context.WithValue(ctx, rootKey{}, rootOf(runID))
}

// runIDs gives a run's root span its derived ids and every other span
// random ones.
type runIDs struct{}

func (runIDs) NewIDs(ctx context.Context) (trace.TraceID, trace.SpanID) {
	if sc, ok := ctx.Value(rootKey{}).(trace.SpanContext); ok {
		return sc.TraceID(), sc.SpanID()
	}
	var tid trace.TraceID
	binary.NativeEndian.PutUint64(tid[:8], nonZero())
	binary.NativeEndian.PutUint64(tid[8:], rand.Uint64())
	return tid, randomSpanID()
}

func (runIDs) NewSpanID(context.Context, trace.TraceID) trace.SpanID { return randomSpanID() }

func randomSpanID() trace.SpanID {
	var sid trace.SpanID
	binary.NativeEndian.PutUint64(sid[:], nonZero())
	return sid
}

func nonZero() uint64 {
	for {
		if v := rand.Uint64(); v != 0 {
			return v
		}
	}
}
