package host

import (
	"context"
	"net"
	"net/http"
	"time"
)

// A Service is what an owner serves on a listener of its own beside the
// local API: the bot's chat callbacks.
type Service interface {
	// Handler answers the service's requests.
	Handler() http.Handler
	// Shutdown stops what the service started, within grace. The host has
	// stopped taking its requests and let those under way finish; it stops
	// the runs after.
	Shutdown(grace context.Context) error
}

// Serve serves s on ln (`hermes bot`'s [bot] listen) until Close, which
// stops it first, with the runs' grace; an error ln stops with reaches
// APIStopped. The host closes ln. A host serves one Service, once.
func (h *Host) Serve(ln net.Listener, s Service) {
	srv := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed || h.service != nil {
		panic("host: Serve after Close, or a second time")
	}
	h.service, h.serviceSrv = s, srv
	go func() { h.served <- srv.Serve(ln) }()
}
