package runapi

import (
	"sync"
	"testing"

	"hermes/backend/event"
)

// TestWatcher_LateJoinersMeetTheLiveStream: viewers that join at any point
// of a run, while it emits, each get every event after their seq exactly
// once, in order, and then the end.
func TestWatcher_LateJoinersMeetTheLiveStream(t *testing.T) {
	const total = 2000
	l := NewLog()
	var wg sync.WaitGroup
	results := make([][]int64, 40)
	joined := make(chan struct{})
	for i := range results {
		wg.Go(func() {
			<-joined
			after := int64(i * total / len(results) / 2)
			w := l.Watch(after)
			got := []int64{}
			for {
				events, more := w.Next()
				for _, e := range events {
					got = append(got, e.Seq)
				}
				if more == nil {
					break
				}
				<-more
			}
			results[i] = append([]int64{after}, got...)
		})
	}
	for seq := int64(1); seq <= total; seq++ {
		if seq == total/4 {
			close(joined)
		}
		// Tool events, not deltas: none may be skipped however slow a viewer is.
		l.Add(event.Event{Seq: seq, Type: event.ToolFinished})
	}
	l.End()
	wg.Wait()
	for i, r := range results {
		after, got := r[0], r[1:]
		if int64(len(got)) != total-after {
			t.Fatalf("viewer %d from seq %d got %d events, want %d", i, after, len(got), total-after)
		}
		for j, seq := range got {
			if seq != after+int64(j)+1 {
				t.Fatalf("viewer %d: event %d has seq %d, want %d", i, j, seq, after+int64(j)+1)
			}
		}
	}
}

// TestWatcher_SlowViewerMissesOnlyDeltas: a viewer far behind skips the
// streamed text in its backlog and nothing else.
func TestWatcher_SlowViewerMissesOnlyDeltas(t *testing.T) {
	l := NewLog()
	w := l.Watch(0)
	for seq := int64(1); seq <= 2*slowBacklog; seq++ {
		typ := event.ModelDelta
		if seq%2 == 0 {
			typ = event.ToolStarted
		}
		l.Add(event.Event{Seq: seq, Type: typ})
	}
	events, more := w.Next()
	if len(events) != slowBacklog || more == nil {
		t.Fatalf("got %d events (more %v), want the %d that are not deltas", len(events), more != nil, slowBacklog)
	}
	for _, e := range events {
		if e.Type == event.ModelDelta {
			t.Fatal("a delta in a slow viewer's backlog")
		}
	}
	// A viewer that keeps up gets the deltas too.
	l.Add(event.Event{Seq: 2*slowBacklog + 1, Type: event.ModelDelta})
	if events, _ := w.Next(); len(events) != 1 || events[0].Type != event.ModelDelta {
		t.Fatalf("a viewer that keeps up got %+v", events)
	}
}
