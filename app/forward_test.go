package app

import (
	"testing"
	"time"

	"hermes/backend/event"
)

// emitted records the batches forwardEvents hands on.
type emitted chan []event.Event

func (c emitted) emit(b []event.Event) { c <- b }

func seqs(b []event.Event) []int64 {
	out := make([]int64, len(b))
	for i, e := range b {
		out[i] = e.Seq
	}
	return out
}

func TestForwardEvents_Batches(t *testing.T) {
	tests := []struct {
		name  string
		every time.Duration
		send  []event.Type
		close bool
		want  [][]int64
	}{
		// A long interval: only an urgent event or the end sends a batch.
		{"an urgent event sends what gathered before it", time.Hour,
			[]event.Type{event.ModelDelta, event.ModelDelta, event.ApprovalRequested}, false, [][]int64{{1, 2, 3}}},
		{"the run's end sends at once", time.Hour,
			[]event.Type{event.ToolStarted, event.RunFinished, event.ModelDelta, event.RunPaused}, false, [][]int64{{1, 2}, {3, 4}}},
		{"closing sends the rest", time.Hour,
			[]event.Type{event.ModelDelta, event.ToolFinished}, true, [][]int64{{1, 2}}},
		// A short interval: the timer sends the batch with nothing urgent in it.
		{"the interval sends a batch", time.Millisecond,
			[]event.Type{event.ModelDelta}, false, [][]int64{{1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := make(chan event.Event)
			out := make(emitted, 8)
			done := make(chan struct{})
			go func() {
				forwardEvents(in, tt.every, out.emit)
				close(done)
			}()
			for i, typ := range tt.send {
				in <- event.Event{Seq: int64(i + 1), Type: typ}
			}
			if tt.close {
				close(in)
				<-done
			}
			for _, want := range tt.want {
				got := seqs(<-out)
				if len(got) != len(want) {
					t.Fatalf("batch %v, want %v", got, want)
				}
				for i := range want {
					if got[i] != want[i] {
						t.Fatalf("batch %v, want %v", got, want)
					}
				}
			}
			if !tt.close {
				close(in)
				<-done
			}
			if len(out) != 0 {
				t.Errorf("an extra batch: %v", seqs(<-out))
			}
		})
	}
}
