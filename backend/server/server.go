// Package server is Hermes' local HTTP API and the web UI's file server:
// what `hermes serve` listens with, and what the frontend's HTTP transport
// talks to in a browser. docs/api.md is its contract.
//
// Every request carries the token `hermes serve` printed (a cookie, set when
// the printed URL is opened, or a bearer header), names this server in its
// Host, and, when it changes something, is JSON from this origin: any page
// the user opens may send requests to loopback (guard.go). The handlers are thin:
// runs are started, steered and watched through backend/runner, and live
// events reach the browser as Server-Sent Events.
package server

import (
	"io/fs"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"hermes/backend/homelock"
	"hermes/backend/runapi"
)

// Options configure the handler New returns.
type Options struct {
	// Runs starts, steers and lists the runs; its home is the one served: a
	// Manager, or the client of the process that owns the home.
	Runs runapi.Runs
	// Owner, in the process that owns the home, is what it wrote in
	// hermes.lock: GET /api/owner answers with it (without the token), so
	// that another process can tell that the lock's address is the owner's.
	Owner *homelock.Lock
	// Token is the secret every request must carry. An empty token refuses
	// every request rather than letting any through.
	Token string
	// Assets is the built web UI (frontend/dist); nil serves a page that says
	// how to build it, and the API still works.
	Assets fs.FS
	// Hosts are more names the server is reached at, as host:port (`hermes
	// serve --listen mybox.lan:7777`). Host must name one of them or the
	// address a request reached; others are refused, against DNS rebinding.
	Hosts []string
	// Heartbeat is how often an idle event stream gets a comment, so proxies
	// and browsers keep it open; 0 means 15 s.
	Heartbeat time.Duration
}

// New returns the handler of the API under /api/ and the web UI at /.
func New(o Options) http.Handler {
	s := &server{runs: o.Runs, token: o.Token, heartbeat: o.Heartbeat, owner: o.Owner}
	for _, h := range o.Hosts {
		if name, _, err := net.SplitHostPort(h); err == nil && name != "" {
			s.hosts = append(s.hosts, strings.ToLower(h))
		}
	}
	if s.heartbeat <= 0 {
		s.heartbeat = 15 * time.Second
	}
	// The routes are set at the first request: the process that owns a home
	// serves this API whether or not anything ever attaches (most often a
	// hermes run), and ServeMux looks up where each route was set, 0.15 ms
	// of CPU in a start.
	routes := sync.OnceValue(func() *http.ServeMux {
		mux := http.NewServeMux()
		mux.HandleFunc("GET /api/runs", s.listRuns)
		mux.HandleFunc("POST /api/runs", s.startRun)
		mux.HandleFunc("GET /api/runs/stream", s.runsStream)
		mux.HandleFunc("GET /api/runs/{id}/events", s.runEvents)
		mux.HandleFunc("GET /api/runs/{id}/stream", s.runStream)
		mux.HandleFunc("POST /api/runs/{id}/control", s.control)
		mux.HandleFunc("POST /api/runs/{id}/approvals/{approval_id}", s.approve)
		mux.HandleFunc("POST /api/runs/{id}/resume", s.resume)
		mux.HandleFunc("POST /api/runs/{id}/fork", s.fork)
		mux.HandleFunc("PATCH /api/runs/{id}", s.rename)
		mux.HandleFunc("DELETE /api/runs/{id}", s.deleteRun)
		mux.HandleFunc("GET /api/runs/{id}/artifacts", s.artifact)
		mux.HandleFunc("GET /api/runs/{id}/context/preview", s.contextPreview)
		mux.HandleFunc("GET /api/runs/{id}/calls/{call_id}/edit", s.vaultEdit)
		mux.HandleFunc("POST /api/runs/{id}/calls/{call_id}/undo", s.undoVaultEdit)
		mux.HandleFunc("GET /api/runs/{id}/note", s.vaultNote)
		mux.HandleFunc("PUT /api/runs/{id}/label", s.owned(s.labelRun))
		mux.HandleFunc("GET /api/runs/{id}/case", s.owned(s.runCase))
		mux.HandleFunc("POST /api/runs/{id}/case", s.owned(s.saveCase))
		mux.HandleFunc("GET /api/labels", s.owned(s.listLabels))
		mux.HandleFunc("GET /api/evals", s.owned(s.listEvals))
		mux.HandleFunc("GET /api/evals/{id}", s.owned(s.showEval))
		mux.HandleFunc("GET /api/memory", s.listMemory)
		mux.HandleFunc("GET /api/memory/{id}", s.showMemory)
		mux.HandleFunc("POST /api/memory/{id}/pin", s.pinMemory)
		mux.HandleFunc("DELETE /api/memory/{id}", s.forgetMemory)
		mux.HandleFunc("GET /api/notices", s.listNotices)
		mux.HandleFunc("GET /api/notices/stream", s.noticesStream)
		mux.HandleFunc("GET /api/stream", s.stream)
		mux.HandleFunc("POST /api/stream/{id}", s.changeStream)
		mux.HandleFunc("GET /api/settings", s.settings)
		mux.HandleFunc("PUT /api/settings/vault", s.setVault)
		mux.HandleFunc("POST /api/model/check", s.checkModel)
		mux.HandleFunc("GET /api/cluster", s.clusterStatus)
		if o.Owner != nil {
			mux.HandleFunc("GET /api/owner", s.identify)
		}
		mux.HandleFunc("/api/", s.noEndpoint)
		mux.Handle("/", uiHandler(o.Assets))
		return mux
	})
	mux := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { routes().ServeHTTP(w, r) })
	return secureHeaders(s.checkHost(sameOrigin(s.authenticate(mux))))
}

// NewHTTPServer is the HTTP server of the local API and the web UI: every
// place that serves them (hermes serve, the window, hermes bot) uses it, so
// none misses a check of New's.
func NewHTTPServer(o Options) *http.Server {
	return &http.Server{Handler: New(o), ReadHeaderTimeout: 10 * time.Second}
}

type server struct {
	runs      runapi.Runs
	owner     *homelock.Lock
	token     string
	hosts     []string
	heartbeat time.Duration
	mux       muxStreams
}

// secureHeaders keeps the UI from being framed or sniffed, and confines its
// scripts and requests to this origin.
func secureHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'")
		next.ServeHTTP(w, r)
	})
}

// uiHandler serves the built UI. Vite names files under assets/ by their
// content hash, so they may be cached for good; everything else (index.html)
// is revalidated so a new build shows at once.
func uiHandler(assets fs.FS) http.Handler {
	if assets == nil {
		return http.HandlerFunc(noUI)
	}
	files := http.FileServerFS(assets)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/assets/") {
			w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		} else {
			w.Header().Set("Cache-Control", "no-cache")
		}
		files.ServeHTTP(w, r)
	})
}
