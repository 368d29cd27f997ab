package cluster

import (
	"fmt"
	"strings"

	"github.com/nats-io/nats.go/jetstream"
)

// bucketMemory holds the chat users' long-term memories, one entry per
// memory under its namespace: the replica that runs a user's next task
// takes them into its own hermes.db first.
const bucketMemory = "hermes_bot_memory"

// Memories are the users' long-term memories as the replicas share them
// (bot.SharedMemory).
type Memories struct{ cl *Cluster }

// Memories returns the shared memories.
func (cl *Cluster) Memories() *Memories { return &Memories{cl} }

func memoryKey(namespace, key string) string { return "mem." + keyOf(namespace) + "." + keyOf(key) }

// Put stores entry as namespace's memory key (such as its text's hash).
func (m *Memories) Put(namespace, key string, entry []byte) error {
	ctx, cancel := opCtx()
	defer cancel()
	if _, err := m.cl.memory.Put(ctx, memoryKey(namespace, key), entry); err != nil {
		return fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	return nil
}

// All returns namespace's memories, read in one pass over its keys.
func (m *Memories) All(namespace string) ([][]byte, error) {
	ctx, cancel := opCtx()
	defer cancel()
	prefix := memoryKey(namespace, "")
	w, err := m.cl.memory.Watch(ctx, prefix+"*", jetstream.IgnoreDeletes())
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	defer w.Stop()
	var out [][]byte
	for {
		select {
		case e := <-w.Updates():
			if e == nil { // every stored one has come
				return out, nil
			}
			if strings.HasPrefix(e.Key(), prefix) {
				out = append(out, e.Value())
			}
		case <-ctx.Done():
			return nil, fmt.Errorf("%w: %v", ErrUnavailable, ctx.Err())
		}
	}
}
