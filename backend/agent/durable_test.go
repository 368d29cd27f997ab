package agent_test

import (
	"encoding/json"
	"errors"
	"os"
	"sync"
	"testing"
	"time"

	"hermes/backend/agent"
	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/store"
)

// slowSyncStore is the real store whose syncs (the run log's, before each
// commit) wait for release, as on a disk too busy to answer.
type slowSyncStore struct {
	*store.Store
	release chan struct{}
	mu      sync.Mutex
	// behind records a checkpoint whose log was shorter, once synced,
	// than the offset the checkpoint points at.
	behind []string
	queued int
}

func (s *slowSyncStore) QueueCheckpoint(c store.Checkpoint) *store.Saving {
	s.mu.Lock()
	s.queued++
	s.mu.Unlock()
	sync := c.Before
	c.Before = func() error {
		<-s.release
		if sync == nil {
			return errors.New("no log sync before the commit")
		}
		err := sync()
		var st struct {
			LogPath   string `json:"log_path"`
			LogOffset int64  `json:"log_offset"`
		}
		_ = json.Unmarshal(c.State, &st)
		if fi, serr := os.Stat(st.LogPath); serr != nil || fi.Size() < st.LogOffset {
			s.mu.Lock()
			s.behind = append(s.behind, string(c.State))
			s.mu.Unlock()
		}
		return err
	}
	return s.Store.QueueCheckpoint(c)
}

type sinkFunc func(event.Event) error

func (f sinkFunc) Write(e event.Event) error { return f(e) }

// The loop goes on while a checkpoint's sync is pending, and waits only at
// the run's end, which returns once its last checkpoint is durable; the log
// is synced up to a checkpoint's offset before the checkpoint is committed.
func TestCheckpoint_LoopDoesNotWaitForSync(t *testing.T) {
	steps := []llmtest.Step{
		{ToolCalls: []llm.ToolCall{call("c1", "list_dir", map[string]any{"path": "."})}},
		{ToolCalls: []llm.ToolCall{call("c2", "read_file", map[string]any{"path": "a.txt"})}},
		{ToolCalls: []llm.ToolCall{call("c3", "read_file", map[string]any{"path": "b.txt"})}},
		{Content: "Read both."},
	}
	h := newHarness(t, llmtest.NewServer(t, steps...))
	h.write("a.txt", "a")
	h.write("b.txt", "b")
	slow := &slowSyncStore{Store: h.setup.Store.(*store.Store), release: make(chan struct{})}
	h.setup.Store = slow

	reached, last := make(chan struct{}), make(chan struct{})
	sink := sinkFunc(func(e event.Event) error {
		switch {
		case e.Type == event.IterationStarted && e.Iteration == 3:
			close(reached)
		case e.Type == event.CheckpointSaved && e.Iteration == 4:
			close(last) // the final answer's; the run's end follows

		}
		return nil
	})
	run, err := agent.NewRun(h.setup, agent.Task{Text: "Read a.txt and b.txt.", Workspace: h.ws}, sink)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan agent.Result, 1)
	go func() { done <- run.Execute(t.Context()) }()

	select {
	case <-reached:
	case res := <-done:
		t.Fatalf("the run ended (%s) before iteration 3", res.Status)
	case <-time.After(30 * time.Second):
		t.Fatal("the loop waited for a checkpoint's sync")
	}
	if _, _, err := slow.LoadCheckpoint(run.ID()); !errors.Is(err, store.ErrNoCheckpoint) {
		t.Fatalf("a checkpoint was durable while every sync was held: %v", err)
	}
	select {
	case <-last:
	case res := <-done:
		t.Fatalf("the run ended (%s) without a checkpoint at iteration 4", res.Status)
	}
	select {
	case res := <-done:
		t.Fatalf("Execute returned (%s) while its checkpoints were not durable", res.Status)
	default:
	}
	close(slow.release)
	res := <-done
	if res.Status != event.StatusFinished {
		t.Fatalf("status %s: %s", res.Status, res.Error)
	}
	raw, _, err := slow.LoadCheckpoint(run.ID())
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Status    string `json:"status"`
		LogPath   string `json:"log_path"`
		LogOffset int64  `json:"log_offset"`
	}
	if err := json.Unmarshal(raw, &st); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(st.LogPath)
	if err != nil {
		t.Fatal(err)
	}
	if st.Status != event.StatusFinished || st.LogOffset != fi.Size() {
		t.Errorf("when Execute returned the checkpoint said %s at offset %d of %d bytes; want finished at the log's end",
			st.Status, st.LogOffset, fi.Size())
	}
	if len(slow.behind) > 0 || slow.queued < 5 {
		t.Errorf("%d of %d checkpoints were committed ahead of their log: %q", len(slow.behind), slow.queued, slow.behind)
	}
}
