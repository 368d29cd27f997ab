package server

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"hermes/backend/api"
	"hermes/backend/i18n"
	"hermes/backend/runapi"
	"hermes/backend/runlog"
	"hermes/backend/runner"
)

// One page of the web UI holds one stream, GET /api/stream, that carries the
// runs list's changes, the notices and the events of the runs it subscribed
// to: a browser opens at most six connections to a host over HTTP/1.1, so a
// stream per run, per list and per notice board hung the third page opened.

// muxStreams are the open multiplexed streams by id, so that a POST can
// change what one of them carries. The zero value is ready.
type muxStreams struct {
	mu  sync.Mutex
	set map[string]*muxStream
}

func (m *muxStreams) add(st *muxStream) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.set == nil {
		m.set = map[string]*muxStream{}
	}
	m.set[st.id] = st
}

func (m *muxStreams) remove(id string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.set, id)
}

func (m *muxStreams) get(id string) *muxStream {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.set[id]
}

// muxStream is one open GET /api/stream; its handler's goroutine is the only
// one that writes to it, so each run's events keep their seq order.
type muxStream struct {
	id   string
	ctl  chan muxChange
	done chan struct{}
}

// muxChange subscribes (w set) or unsubscribes (w nil) a run; err, when
// set, ends the subscription at once with the reason.
type muxChange struct {
	runID string
	w     *runapi.Watcher
	err   error
}

// muxSub is one subscribed run: its watcher and the goroutine that waits
// for the run's next events.
type muxSub struct {
	runID string
	w     *runapi.Watcher
	stop  chan struct{}
}

// stream answers GET /api/stream?sub=RUN:AFTER&sub=…: first `stream` with
// the stream's id, then `run` (runs list changes), `notice`, `hermes` (an
// event of a subscribed run, after the seq asked) and `end` (a subscribed
// run's leg is over, or it could not be watched) as they happen.
func (s *server) stream(w http.ResponseWriter, r *http.Request) {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	st := &muxStream{id: hex.EncodeToString(b[:]), ctl: make(chan muxChange), done: make(chan struct{})}
	// Subscriptions in the URL are how a client resumes after a reconnect.
	var initial []muxChange
	for _, q := range r.URL.Query()["sub"] {
		id, after, err := subParam(q)
		c := muxChange{runID: id, err: err}
		if err == nil {
			c.w, c.err = s.runs.Watch(id, after)
		}
		initial = append(initial, c)
	}

	runs := s.runs.Feed()
	defer runs.Close()
	var noticesReady <-chan struct{}
	var takeNotices func() []api.Notice
	if n, ok := s.runs.(noticer); ok {
		feed := n.Notices().Watch()
		defer feed.Close()
		noticesReady, takeNotices = feed.Ready(), feed.Take
	}

	s.mux.add(st)
	defer s.mux.remove(st.id)
	defer close(st.done)
	out := startSSE(w)
	out.send("", "stream", encode(api.StreamOpened{StreamID: st.id}))

	subs := map[string]*muxSub{}
	defer func() {
		for _, sub := range subs {
			close(sub.stop)
		}
	}()
	ready := make(chan *muxSub)
	// drain sends what sub's run has for it and waits for more, or ends it.
	drain := func(sub *muxSub) {
		events, more := sub.w.Next()
		for _, e := range events {
			out.send("", "hermes", encode(e))
		}
		if more == nil {
			out.send("", "end", encode(api.StreamEnd{RunID: sub.runID}))
			close(sub.stop)
			delete(subs, sub.runID)
			return
		}
		go func() {
			select {
			case <-more:
				select {
				case ready <- sub:
				case <-sub.stop:
				}
			case <-sub.stop:
			}
		}()
	}
	apply := func(c muxChange) {
		if old := subs[c.runID]; old != nil {
			close(old.stop)
			delete(subs, c.runID)
		}
		switch {
		case c.err != nil:
			e := runner.Explain(c.err)
			out.send("", "end", encode(api.StreamEnd{RunID: c.runID, Error: &e}))
		case c.w != nil:
			sub := &muxSub{runID: c.runID, w: c.w, stop: make(chan struct{})}
			subs[c.runID] = sub
			drain(sub)
		}
	}
	for _, c := range initial {
		apply(c)
	}
	out.flush()

	tick := time.NewTicker(s.heartbeat)
	defer tick.Stop()
	for out.err == nil {
		select {
		case sub := <-ready:
			if subs[sub.runID] == sub {
				drain(sub)
			}
		case c := <-st.ctl:
			apply(c)
		case <-runs.Ready():
			for _, sum := range runs.Take() {
				out.send("", "run", encode(sum))
			}
		case <-noticesReady:
			for _, n := range takeNotices() {
				out.send("", "notice", encode(n))
			}
		case <-tick.C:
			out.heartbeat()
			continue
		case <-r.Context().Done():
			return
		}
		out.flush()
	}
}

// changeStream answers POST /api/stream/{id}: the runs to add to or drop
// from a stream. A run that cannot be watched is refused here, before any
// change is made.
func (s *server) changeStream(w http.ResponseWriter, r *http.Request) {
	var req api.StreamChange
	if !decode(w, r, &req, false) {
		return
	}
	st := s.mux.get(r.PathValue("id"))
	if st == nil {
		writeAPIError(w, runner.NewAPIError("no_stream", i18n.Errorf("server.no_stream", r.PathValue("id"))))
		return
	}
	changes := make([]muxChange, 0, len(req.Subscribe)+len(req.Unsubscribe))
	for _, id := range req.Unsubscribe {
		changes = append(changes, muxChange{runID: id})
	}
	for _, sub := range req.Subscribe {
		wt, err := s.runs.Watch(sub.RunID, sub.After)
		if err != nil {
			writeError(w, err)
			return
		}
		changes = append(changes, muxChange{runID: sub.RunID, w: wt})
	}
	for _, c := range changes {
		select {
		case st.ctl <- c:
		case <-st.done:
			writeAPIError(w, runner.NewAPIError("no_stream", i18n.Errorf("server.no_stream", st.id)))
			return
		case <-r.Context().Done():
			return
		}
	}
	w.WriteHeader(http.StatusNoContent)
}

// subParam reads RUN:AFTER (or RUN alone, from the start).
func subParam(q string) (string, int64, error) {
	id, after, found := strings.Cut(q, ":")
	if !found {
		return id, 0, nil
	}
	n, err := strconv.ParseInt(after, 10, 64)
	if err != nil || n < 0 {
		return id, 0, fmt.Errorf("sub %q: %w", q, runlog.ErrBadRange)
	}
	return id, n, nil
}
