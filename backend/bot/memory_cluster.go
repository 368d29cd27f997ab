package bot

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sync"
	"time"

	"hermes/backend/agent"
	"hermes/backend/config"
	"hermes/backend/event"
	"hermes/backend/longterm"
	"hermes/backend/runner"
)

// SharedMemory keeps the chat users' long-term memories for every replica:
// a run writes a user's memories into its replica's hermes.db, and the
// replica that runs the user's next task may be another.
type SharedMemory interface {
	// Put stores entry as namespace's memory key.
	Put(namespace, key string, entry []byte) error
	// All returns every memory of namespace.
	All(namespace string) ([][]byte, error)
}

// sharedEntry is a memory as it travels between replicas: what recall
// needs, not this replica's ids or recall counts.
type sharedEntry struct {
	Kind    string    `json:"kind"`
	Text    string    `json:"text"`
	RunID   string    `json:"run_id,omitempty"`
	Source  string    `json:"source,omitempty"`
	Created time.Time `json:"created"`
	Pinned  bool      `json:"pinned,omitempty"`
}

// memoryOf is the long-term memory runs of setup recall and write (the
// runs' store is the bot's), nil when they keep none or the bot is no
// replica.
func (b *Bot) memoryOf(setup agent.Setup) *longterm.Memory {
	if b.shared == nil || b.shared.Memory == nil || setup.Memory != agent.MemoryOn && setup.Memory != agent.MemoryRead {
		return nil
	}
	return longterm.New(b.store)
}

// sharingMemory is h for a run of setup about to start on this replica:
// the session's memories from other replicas are taken in first, and
// those the run writes (its memory.written events name them) are shared
// before its answer goes out.
func (b *Bot) sharingMemory(setup agent.Setup, h runner.Hooks) runner.Hooks {
	if b.memoryOf(setup) == nil {
		return h
	}
	b.pullMemory(setup)
	w := &writtenSink{next: h.Sink}
	done := h.Done
	h.Sink = w
	h.Done = func(res agent.Result) {
		b.pushMemory(setup, w.take())
		if done != nil {
			done(res)
		}
	}
	return h
}

// writtenSink gathers the ids of the memories a run writes, from its
// memory.written events, and passes every event on.
type writtenSink struct {
	next event.Sink

	mu  sync.Mutex
	ids []uint64
}

func (w *writtenSink) Write(e event.Event) error {
	if e.Type == event.MemoryWritten {
		if d, err := event.Decode[event.MemoryWrittenData](e); err == nil {
			w.mu.Lock()
			for _, ref := range d.Entries {
				w.ids = append(w.ids, ref.ID)
			}
			w.mu.Unlock()
		}
	}
	if w.next != nil {
		return w.next.Write(e)
	}
	return nil
}

func (w *writtenSink) take() []uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	ids := w.ids
	w.ids = nil
	return ids
}

// pullMemory takes the memories of the session's namespace that other
// replicas' runs wrote into this replica's hermes.db (Remember skips those
// it holds already), before a run of setup starts. A cluster that cannot
// be read leaves the run with the memories it has here.
func (b *Bot) pullMemory(setup agent.Setup) {
	mem := b.memoryOf(setup)
	if mem == nil {
		return
	}
	ns := setup.MemoryNamespace
	if all, err := b.shared.Memory.All(ns); err != nil {
		b.log.Warn("the user's memories from other replicas could not be read", "err", err)
	} else if len(all) > 0 {
		fade := setup.Limits.MemoryFade
		if fade <= 0 {
			fade = config.DefaultMemoryFade
		}
		entries := make([]longterm.Entry, 0, len(all))
		for _, data := range all {
			// One older than memory_fade is left out, as fading would
			// drop it here: the replicas do not share when a memory was
			// last recalled, so a shared one lasts that long from when
			// it was written.
			var e sharedEntry
			if json.Unmarshal(data, &e) == nil && (e.Pinned || b.now().Sub(e.Created) < fade) {
				entries = append(entries, longterm.Entry{
					Kind: e.Kind, Text: b.scrub(e.Text, setup.Redactor), RunID: e.RunID, Source: e.Source,
					Created: e.Created, Pinned: e.Pinned, Namespace: ns,
				})
			}
		}
		if _, err := mem.Remember(entries, b.now()); err != nil {
			b.log.Warn("the user's memories from other replicas could not be kept", "err", err)
		}
	}
}

// pushMemory puts the memories of the session's namespace that a run wrote
// here (ids) where every replica finds them, before the run's answer goes
// out: the user's next task may go to another replica. Each is read by its
// id: the replica's other users' memories are never read for it.
func (b *Bot) pushMemory(setup agent.Setup, ids []uint64) {
	mem := b.memoryOf(setup)
	if mem == nil {
		return
	}
	for _, id := range ids {
		e, err := mem.Get(id)
		if err != nil || e.Namespace != setup.MemoryNamespace {
			continue // forgotten or faded meanwhile, or not this user's
		}
		data, _ := json.Marshal(sharedEntry{
			Kind: e.Kind, Text: b.scrub(e.Text, setup.Redactor), RunID: e.RunID, Source: e.Source, Created: e.Created, Pinned: e.Pinned,
		})
		sum := sha256.Sum256([]byte(longterm.Normalise(e.Text)))
		if err := b.shared.Memory.Put(e.Namespace, hex.EncodeToString(sum[:16]), data); err != nil {
			b.log.Warn("a memory could not be shared with the other replicas", "err", err)
			return
		}
	}
}
