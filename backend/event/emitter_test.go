package event

import (
	"errors"
	"testing"
)

func TestEmitter_NothingAfterRunFinished(t *testing.T) {
	rec := &recorder{}
	bus := NewBus()
	sub := bus.Subscribe(8, nil)
	m := NewEmitter("run", EmitterOptions{Sinks: []Sink{rec}, Bus: bus})
	if _, err := m.Emit(RunFinished, 1, RunFinishedData{Status: StatusFinished}); err != nil {
		t.Fatal(err)
	}
	e, err := m.Emit(GuardTripped, 1, GuardTrippedData{Guard: GuardCheckpointFail})
	if !errors.Is(err, ErrFinished) || e.Seq != 0 {
		t.Errorf("Emit after run.finished = %+v, %v; want ErrFinished", e, err)
	}
	// The next leg starts with run.resumed and numbers on.
	if e, err := m.Emit(RunResumed, 1, RunResumedData{FromCheckpoint: true}); err != nil || e.Seq != 2 {
		t.Errorf("run.resumed after run.finished = %+v, %v", e, err)
	}
	bus.Unsubscribe(sub)
	var live []Event
	for e := range sub.C {
		live = append(live, e)
	}
	if len(rec.events) != 2 || len(live) != 2 || m.LastSeq() != 2 {
		t.Errorf("the log got %d events, the bus %d, last seq %d; want run.finished and run.resumed", len(rec.events), len(live), m.LastSeq())
	}
}
