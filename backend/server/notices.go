package server

import (
	"net/http"
	"time"

	"hermes/backend/api"
	"hermes/backend/runner"
)

// noticer is what has notices to show: the Manager of the process that owns
// the home. A process attached to an owner has none of its own.
type noticer interface{ Notices() *runner.NoticeBoard }

// listNotices answers GET /api/notices: the notices in force, oldest first.
func (s *server) listNotices(w http.ResponseWriter, _ *http.Request) {
	list := []api.Notice{}
	if n, ok := s.runs.(noticer); ok {
		list = n.Notices().List()
	}
	writeJSON(w, http.StatusOK, list)
}

// noticesStream answers GET /api/notices/stream: `event: notice` for every
// notice published from now on. A viewer lists the notices first, then
// watches; one published in between comes on the stream too, and replaces
// its ID's notice.
func (s *server) noticesStream(w http.ResponseWriter, r *http.Request) {
	var ready <-chan struct{}
	var take func() []api.Notice
	if n, ok := s.runs.(noticer); ok {
		feed := n.Notices().Watch()
		defer feed.Close()
		ready, take = feed.Ready(), feed.Take
	}
	out := startSSE(w)
	tick := time.NewTicker(s.heartbeat)
	defer tick.Stop()
	for out.err == nil {
		select {
		case <-ready:
			for _, n := range take() {
				out.send("", "notice", encode(n))
			}
			out.flush()
		case <-tick.C:
			out.heartbeat()
		case <-r.Context().Done():
			return
		}
	}
}
