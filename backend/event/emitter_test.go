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
	bus.Unsubscribe(sub)
	var live []Event
	for e := range sub.C {
		live = append(live, e)
	}
	if len(rec.events) != 1 || len(live) != 1 || m.LastSeq() != 1 {
		t.Errorf("the log got %d events, the bus %d, last seq %d; want only run.finished", len(rec.events), len(live), m.LastSeq())
	}
}
