package runlog

import (
	"fmt"
	"testing"
	"time"

	"hermes/backend/event"
)

// BenchmarkWriter measures appending a realistic mix of events, flushed at
// every iteration boundary as the loop does.
func BenchmarkWriter(b *testing.B) {
	w, err := Create(b.TempDir(), "bench", t0)
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	rec := &recorder{}
	emitIteration(b, event.NewEmitter("bench", event.EmitterOptions{Sinks: []event.Sink{rec}}), 1, 100)
	events := rec.events
	n := 0
	for b.Loop() {
		for _, e := range events {
			if err := w.Write(e); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Flush(); err != nil {
			b.Fatal(err)
		}
		n += len(events)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkList lists 200 runs of 500 events each: cold folds every log,
// warm finds them unchanged since the last listing.
func BenchmarkList(b *testing.B) {
	home := b.TempDir()
	for r := range 200 {
		started := t0.Add(time.Duration(r) * time.Minute)
		logRun(b, home, fmt.Sprintf("%s-%06x", started.Format("20060102-150405"), r), started, func(em *event.Emitter) {
			emitStart(b, em, fmt.Sprintf("task %d", r))
			for i := 1; i <= 71; i++ { // 7 events an iteration
				emitIteration(b, em, i, 100)
			}
			emitFinish(b, em, 71, event.StatusFinished, "answer")
		})
	}
	for _, cold := range []bool{true, false} {
		b.Run(map[bool]string{true: "cold", false: "warm"}[cold], func(b *testing.B) {
			for b.Loop() {
				if cold {
					summaries.reset()
				}
				sums, err := List(home)
				if err != nil || len(sums) != 200 {
					b.Fatalf("List: %d runs, %v", len(sums), err)
				}
			}
		})
	}
}
