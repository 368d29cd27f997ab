package cli

import (
	"context"
	"fmt"
	"io/fs"
	"net"
	"net/http"

	"hermes/backend/i18n"
	"hermes/backend/remote"
	"hermes/backend/runner"
	"hermes/backend/server"
)

// localAPI is the HTTP server of the local API and the web UI over runs,
// the owner's (owner set) or an attached process's; hosts are the names it
// is reached at besides its addresses (server.Options.Hosts). Its event
// streams never go idle, so they end with streams rather than holding
// Shutdown up.
func localAPI(runs runner.Runs, token string, assets fs.FS, owner *remote.Lock, streams context.Context, hosts ...string) *http.Server {
	srv := server.NewHTTPServer(server.Options{Runs: runs, Token: token, Assets: assets, Owner: owner, Hosts: hosts})
	srv.BaseContext = func(net.Listener) context.Context { return streams }
	return srv
}

// ownerListener gives the loopback address that hermes.lock names for a
// local API listening on ln. A listener on loopback or on every address
// answers on loopback already; one on another address gets a second
// listener on a free loopback port, returned to be served too.
func ownerListener(ln net.Listener) (string, net.Listener, error) {
	addr := ln.Addr().(*net.TCPAddr)
	if addr.IP.IsLoopback() {
		return addr.String(), nil, nil
	}
	if addr.IP.IsUnspecified() {
		return net.JoinHostPort("127.0.0.1", fmt.Sprint(addr.Port)), nil, nil
	}
	extra, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, i18n.Wrap(err, "cli.serve.listen_failed", "127.0.0.1:0", err)
	}
	return extra.Addr().String(), extra, nil
}

// closeListener closes ln, if there is one.
func closeListener(ln net.Listener) {
	if ln != nil {
		ln.Close()
	}
}
