package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"hermes/backend/runlog"
)

// sse writes one Server-Sent Events response.
type sse struct {
	w   http.ResponseWriter
	rc  *http.ResponseController
	err error
}

func startSSE(w http.ResponseWriter) *sse {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no") // a proxy in front must not hold events back
	w.WriteHeader(http.StatusOK)
	s := &sse{w: w, rc: http.NewResponseController(w)}
	s.flush()
	return s
}

// send writes one message; data is one line of JSON.
func (s *sse) send(id, name string, data []byte) {
	if s.err != nil {
		return
	}
	if id != "" {
		_, s.err = fmt.Fprintf(s.w, "id: %s\n", id)
	}
	if s.err == nil {
		_, s.err = fmt.Fprintf(s.w, "event: %s\ndata: %s\n\n", name, data)
	}
}

// heartbeat is a comment, which clients skip; it keeps idle proxies and
// browsers from closing the stream.
func (s *sse) heartbeat() {
	if s.err == nil {
		_, s.err = fmt.Fprint(s.w, ": heartbeat\n\n")
	}
	s.flush()
}

func (s *sse) flush() {
	if s.err == nil {
		s.err = s.rc.Flush()
	}
}

// runStream answers GET /api/runs/{id}/stream: every event with seq above
// `after` (or Last-Event-ID, when a browser reconnects), those so far and
// then the live ones, and `end` once the run's leg is over.
func (s *server) runStream(w http.ResponseWriter, r *http.Request) {
	after, err := seqParam(r.URL.Query().Get("after"))
	last, lerr := seqParam(r.Header.Get("Last-Event-ID"))
	if err != nil || lerr != nil {
		writeError(w, fmt.Errorf("after %q, Last-Event-ID %q: %w", r.URL.Query().Get("after"), r.Header.Get("Last-Event-ID"), runlog.ErrBadRange))
		return
	}
	watcher, err := s.runs.Watch(r.PathValue("id"), max(after, last))
	if err != nil {
		writeError(w, err)
		return
	}
	out := startSSE(w)
	tick := time.NewTicker(s.heartbeat)
	defer tick.Stop()
	for out.err == nil {
		events, more := watcher.Next()
		for _, e := range events {
			out.send(strconv.FormatInt(e.Seq, 10), "hermes", encode(e))
		}
		if more == nil {
			out.send("", "end", []byte("{}"))
			out.flush()
			return
		}
		out.flush()
		select {
		case <-more:
		case <-tick.C:
			out.heartbeat()
		case <-r.Context().Done():
			return
		}
	}
}

// runsStream answers GET /api/runs/stream: a run's summary whenever it
// starts, starts an iteration, pauses, resumes, asks for approval or ends.
func (s *server) runsStream(w http.ResponseWriter, r *http.Request) {
	feed := s.runs.Feed()
	defer feed.Close()
	out := startSSE(w)
	tick := time.NewTicker(s.heartbeat)
	defer tick.Stop()
	for out.err == nil {
		select {
		case <-feed.Ready():
			for _, sum := range feed.Take() {
				out.send("", "run", encode(sum))
			}
			out.flush()
		case <-tick.C:
			out.heartbeat()
		case <-r.Context().Done():
			return
		}
	}
}

func seqParam(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	return strconv.ParseInt(s, 10, 64)
}

// encode writes v as one line: JSON never holds a raw newline.
func encode(v any) []byte {
	b, _ := json.Marshal(v) // events and summaries always encode
	return b
}
