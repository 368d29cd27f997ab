package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"hermes/backend/event"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runner"
)

// heldModel answers each task's first request with a tool call once the
// task's hold is closed, and every later request with an answer. asked
// receives the task when its first request arrives.
type heldModel struct {
	mu    sync.Mutex
	holds map[string]chan struct{}
	seen  map[string]bool
	asked chan string
}

func newHeldModel(t *testing.T, tasks ...string) (*heldModel, *llmtest.Server) {
	m := &heldModel{holds: map[string]chan struct{}{}, seen: map[string]bool{}, asked: make(chan string, len(tasks))}
	for _, task := range tasks {
		m.holds[task] = make(chan struct{})
	}
	srv := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		m.mu.Lock()
		defer m.mu.Unlock()
		for task, hold := range m.holds {
			if !m.seen[task] && mentions(req.Messages, task) {
				m.seen[task] = true
				m.asked <- task
				return llmtest.Step{Content: "Looking.", ToolCalls: []llm.ToolCall{{ID: "c-" + task, Name: "list_files", Arguments: `{}`}}, Wait: hold}
			}
		}
		return llmtest.Step{Content: "Done.", Chunks: 3}
	})
	return m, srv
}

func mentions(ms []llm.Message, task string) bool {
	for _, m := range ms {
		if m.Role == "user" && strings.Contains(m.Content, task) {
			return true
		}
	}
	return false
}

// muxReader reads a multiplexed stream and keeps each run's seq order.
type muxReader struct {
	t    *testing.T
	ms   <-chan message
	id   string
	last map[string]int64
}

func (h *harness) openMux(ctx context.Context, query string) *muxReader {
	h.t.Helper()
	ms := h.streamCtx(ctx, "/api/stream"+query, nil)
	first := <-ms
	var hello struct {
		StreamID string `json:"stream_id"`
	}
	if err := json.Unmarshal([]byte(first.data), &hello); first.name != "stream" || err != nil || hello.StreamID == "" {
		h.t.Fatalf("first message %+v (%v)", first, err)
	}
	return &muxReader{t: h.t, ms: ms, id: hello.StreamID, last: map[string]int64{}}
}

// next returns the next message; an event must follow its run's last seq.
func (r *muxReader) next() (message, event.Event) {
	r.t.Helper()
	m, ok := <-r.ms
	if !ok {
		r.t.Fatal("the stream closed")
	}
	var e event.Event
	if m.name == "hermes" {
		if err := json.Unmarshal([]byte(m.data), &e); err != nil {
			r.t.Fatal(err)
		}
		if want := r.last[e.RunID] + 1; e.Seq != want {
			r.t.Fatalf("run %s: seq %d, want %d", e.RunID, e.Seq, want)
		}
		r.last[e.RunID] = e.Seq
	}
	return m, e
}

// untilEnded reads until every run in ids has ended and returns the events of each.
func (r *muxReader) untilEnded(ids ...string) map[string][]event.Event {
	r.t.Helper()
	got := map[string][]event.Event{}
	open := map[string]bool{}
	for _, id := range ids {
		open[id] = true
	}
	for len(open) > 0 {
		m, e := r.next()
		switch m.name {
		case "hermes":
			got[e.RunID] = append(got[e.RunID], e)
		case "end":
			var end struct {
				RunID string          `json:"run_id"`
				Error json.RawMessage `json:"error"`
			}
			if err := json.Unmarshal([]byte(m.data), &end); err != nil || end.Error != nil {
				r.t.Fatalf("end %s (%v)", m.data, err)
			}
			delete(open, end.RunID)
		}
	}
	return got
}

func (h *harness) change(streamID, body string, want int) {
	h.t.Helper()
	h.call("POST", "/api/stream/"+streamID, body, want, nil)
}

func (h *harness) logged(id string) []event.Event {
	h.t.Helper()
	var events []event.Event
	h.call("GET", "/api/runs/"+id+"/events", "", http.StatusOK, &events)
	return events
}

func TestStream_TwoRunsInOrder(t *testing.T) {
	m, srv := newHeldModel(t, "alpha", "beta")
	h := newHarness(t, srv, nil, "")
	a, b := h.start("task alpha"), h.start("task beta")
	<-m.asked
	<-m.asked

	s := h.openMux(t.Context(), "")
	h.change(s.id, fmt.Sprintf(`{"subscribe":[{"run_id":%q,"after":0},{"run_id":%q,"after":0}]}`, a, b), http.StatusNoContent)
	close(m.holds["alpha"])
	close(m.holds["beta"])
	got := s.untilEnded(a, b)
	for _, id := range []string{a, b} {
		if want := h.logged(id); len(got[id]) != len(want) || types(got[id]) != types(want) {
			t.Fatalf("run %s: streamed %s, logged %s", id, types(got[id]), types(want))
		}
	}
}

func TestStream_ResumeAfterReconnect(t *testing.T) {
	m, srv := newHeldModel(t, "alpha")
	h := newHarness(t, srv, nil, "")
	a := h.start("task alpha")
	<-m.asked
	before := len(h.logged(a))

	ctx, cancel := context.WithCancel(t.Context())
	s := h.openMux(ctx, "?sub="+a+":0")
	var seen []event.Event
	for len(seen) < before/2 {
		if msg, e := s.next(); msg.name == "hermes" {
			seen = append(seen, e)
		}
	}
	cancel() // the page lost its connection part-way
	close(m.holds["alpha"])

	again := h.openMux(t.Context(), fmt.Sprintf("?sub=%s:%d", a, seen[len(seen)-1].Seq))
	again.last[a] = seen[len(seen)-1].Seq
	all := slices.Concat(seen, again.untilEnded(a)[a])
	if want := h.logged(a); types(all) != types(want) {
		t.Fatalf("streamed across the reconnect %s, logged %s", types(all), types(want))
	}
}

func TestStream_Unsubscribe(t *testing.T) {
	m, srv := newHeldModel(t, "alpha", "beta")
	h := newHarness(t, srv, nil, "")
	a, b := h.start("task alpha"), h.start("task beta")
	<-m.asked
	<-m.asked
	s := h.openMux(t.Context(), "?sub="+a+"&sub="+b+":0")
	for sofar := int64(len(h.logged(a))); s.last[a] < sofar; {
		s.next()
	}

	h.change(s.id, fmt.Sprintf(`{"unsubscribe":[%q]}`, a), http.StatusNoContent)
	close(m.holds["alpha"])
	// Alpha ends with nothing more of it on the stream; the runs list says so.
	for ended := false; !ended; {
		msg, e := s.next()
		if e.RunID == a || msg.name == "end" {
			t.Fatalf("after unsubscribing: %s %s", msg.name, msg.data)
		}
		var sum runner.Summary
		if msg.name == "run" && json.Unmarshal([]byte(msg.data), &sum) == nil {
			ended = sum.RunID == a && !sum.Live
		}
	}
	close(m.holds["beta"])
	if got := s.untilEnded(b)[b]; s.last[a] == int64(len(h.logged(a))) || len(got) == 0 {
		t.Fatalf("alpha: %d events streamed of %d; beta: %d", s.last[a], len(h.logged(a)), len(got))
	}

	// A run that cannot be watched is refused, and so is a stream that is gone.
	h.change(s.id, `{"subscribe":[{"run_id":"no-such-run","after":0}]}`, http.StatusNotFound)
	h.change("0123", `{"unsubscribe":["x"]}`, http.StatusNotFound)
}
