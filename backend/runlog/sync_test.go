package runlog

import (
	"testing"
	"time"

	"hermes/backend/event"
)

// Sync makes the flushed lines durable without the lock Write takes, so the
// loop goes on writing events while the disk syncs; a new log's directory
// entries are synced with it once.
func TestWriter_SyncDoesNotHoldWrites(t *testing.T) {
	w, err := Create(t.TempDir(), NewRunID(t0), t0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	em := event.NewEmitter("r", event.EmitterOptions{Sinks: []event.Sink{w}})
	emitStart(t, em, "task")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	w.mu.Lock() // a Write under way
	done := make(chan error, 1)
	go func() { done <- w.Sync() }()
	select {
	case err = <-done:
		w.mu.Unlock()
	case <-time.After(10 * time.Second):
		w.mu.Unlock()
		t.Fatal("Sync waited for a Write")
	}
	if err != nil {
		t.Fatal(err)
	}
	if !w.dirSynced {
		t.Error("the new log's directory entry was not synced")
	}
}
