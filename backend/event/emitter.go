package event

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"
)

// Sink receives every event of a run synchronously and in seq order; the run
// log is one. An error from a sink is returned by Emit.
type Sink interface {
	Write(Event) error
}

// Emitter numbers and publishes the events of one leg of a run. Seq is
// assigned and sinks are written under one lock, so the log order is the
// seq order even when concurrent tool calls emit at once. run.finished ends
// a leg: only run.resumed, which starts the next, may follow it.
type Emitter struct {
	mu       sync.Mutex
	runID    string
	seq      int64
	finished bool
	now      func() time.Time
	redact   func([]byte) []byte
	sinks    []Sink
	bus      *Bus
}

// EmitterOptions configure an Emitter. LastSeq continues a resumed run's
// numbering; Redact scrubs secrets from every payload before anyone sees it.
type EmitterOptions struct {
	LastSeq int64
	Redact  func([]byte) []byte
	Bus     *Bus
	Sinks   []Sink
	Now     func() time.Time
}

// NewEmitter returns the emitter of run runID.
func NewEmitter(runID string, o EmitterOptions) *Emitter {
	now := o.Now
	if now == nil {
		now = time.Now
	}
	return &Emitter{runID: runID, seq: o.LastSeq, now: now, redact: o.Redact, sinks: o.Sinks, bus: o.Bus}
}

// RunID is the run whose events this emitter numbers.
func (m *Emitter) RunID() string { return m.runID }

// LastSeq is the seq of the last event emitted.
func (m *Emitter) LastSeq() int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.seq
}

// Emit publishes one event with the given payload and returns it. Between
// run.finished and run.resumed it publishes nothing and returns ErrFinished.
func (m *Emitter) Emit(t Type, iteration int, payload any) (Event, error) {
	data, err := json.Marshal(payload)
	if err != nil {
		return Event{}, fmt.Errorf("encode %s payload: %w", t, err)
	}
	if m.redact != nil {
		data = m.redact(data)
	}
	m.mu.Lock()
	if m.finished && t != RunResumed {
		m.mu.Unlock()
		return Event{}, fmt.Errorf("%s: %w", t, ErrFinished)
	}
	m.finished = t == RunFinished
	m.seq++
	e := Event{V: Version, RunID: m.runID, Seq: m.seq, Time: m.now().UTC(), Iteration: iteration, Type: t, Data: data}
	var sinkErr error
	for _, s := range m.sinks {
		if err := s.Write(e); err != nil && sinkErr == nil {
			sinkErr = err
		}
	}
	// Publishing under the lock keeps every subscriber's view in seq order.
	if m.bus != nil {
		m.bus.Publish(e)
	}
	m.mu.Unlock()
	return e, sinkErr
}
