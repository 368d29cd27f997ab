// Package server is Hermes' local HTTP API and the web UI's file server:
// what `hermes serve` listens with, and what the frontend's HTTP transport
// talks to in a browser.
//
// It reads the home directory's run logs through backend/runlog. Later
// issues add Server-Sent Events for live runs, run controls and a token; the
// routes are declared in one place (routes) so they can join.
package server

import (
	"io/fs"
	"net/http"
	"strings"
)

// Options configure the handler New returns.
type Options struct {
	// Home is the Hermes home directory whose logs/ are served.
	Home string
	// Assets is the built web UI (frontend/dist); nil serves a page that says
	// how to build it, and the API still works.
	Assets fs.FS
}

// New returns the handler of the API under /api/ and the web UI at /.
func New(o Options) http.Handler {
	s := &server{home: o.Home}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/runs", s.listRuns)
	mux.HandleFunc("GET /api/runs/{id}/events", s.runEvents)
	mux.HandleFunc("/api/", s.noEndpoint)
	mux.Handle("/", uiHandler(o.Assets))
	return secureHeaders(mux)
}

type server struct {
	home string
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
