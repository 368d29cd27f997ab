package event

import (
	"strings"
	"sync"
	"testing"
)

type recorder struct {
	mu     sync.Mutex
	events []Event
}

func (r *recorder) Write(e Event) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
	return nil
}

func TestEmitter_SeqFollowsSinkOrderUnderConcurrency(t *testing.T) {
	rec := &recorder{}
	m := NewEmitter("run", EmitterOptions{LastSeq: 10, Sinks: []Sink{rec}})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				if _, err := m.Emit(ToolFinished, i, ToolFinishedData{Name: "t"}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	if len(rec.events) != 400 || m.LastSeq() != 410 {
		t.Fatalf("%d events, last seq %d", len(rec.events), m.LastSeq())
	}
	for i, e := range rec.events {
		if e.Seq != int64(11+i) || e.V != Version || e.RunID != "run" {
			t.Fatalf("event %d = %+v", i, e)
		}
	}
}

func TestEmitter_RedactsBeforeAnyoneSees(t *testing.T) {
	rec := &recorder{}
	bus := NewBus()
	sub := bus.Subscribe(4, nil)
	m := NewEmitter("run", EmitterOptions{Sinks: []Sink{rec}, Bus: bus, Redact: func(b []byte) []byte {
		return []byte(strings.ReplaceAll(string(b), "s3cret", "[REDACTED]"))
	}})
	if _, err := m.Emit(RunFinished, 1, RunFinishedData{Answer: "the key is s3cret"}); err != nil {
		t.Fatal(err)
	}
	got := <-sub.C
	for _, e := range []Event{got, rec.events[0]} {
		if strings.Contains(string(e.Data), "s3cret") {
			t.Errorf("secret reached a viewer: %s", e.Data)
		}
	}
}

func TestBus_DropsOnlyDeltasForASlowViewer(t *testing.T) {
	bus := NewBus()
	slow := bus.Subscribe(1, nil)
	only := bus.Subscribe(8, func(e Event) bool { return e.RunID == "b" })
	bus.Publish(Event{RunID: "a", Seq: 1, Type: IterationStarted})
	bus.Publish(Event{RunID: "a", Seq: 2, Type: ModelDelta}) // the buffer is full: dropped
	done := make(chan struct{})
	go func() {
		bus.Publish(Event{RunID: "b", Seq: 3, Type: RunFinished}) // waits for the slow viewer
		close(done)
	}()
	if e := <-slow.C; e.Seq != 1 {
		t.Fatalf("first event seq %d", e.Seq)
	}
	if e := <-slow.C; e.Seq != 3 {
		t.Fatalf("terminal event lost: got seq %d", e.Seq)
	}
	<-done
	if slow.Dropped() != 1 {
		t.Errorf("dropped %d deltas, want 1", slow.Dropped())
	}
	if e := <-only.C; e.RunID != "b" || len(only.C) != 0 {
		t.Errorf("filtered subscription got %+v", e)
	}
	bus.Unsubscribe(slow)
	if _, open := <-slow.C; open {
		t.Error("channel still open after Unsubscribe")
	}
}

func TestBus_UnsubscribeReleasesABlockedPublisher(t *testing.T) {
	bus := NewBus()
	s := bus.Subscribe(0, nil)
	done := make(chan struct{})
	go func() {
		bus.Publish(Event{Type: RunFinished})
		close(done)
	}()
	bus.Unsubscribe(s)
	<-done
}
