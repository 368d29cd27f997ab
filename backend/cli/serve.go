package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"hermes/backend/i18n"
	"hermes/backend/server"
)

const defaultListen = "127.0.0.1:7777"

// shutdownGrace is how long open requests get to finish when serve stops.
const shutdownGrace = 5 * time.Second

// cmdServe serves the web UI and the local API until ctx is cancelled or
// Ctrl-C is pressed.
func cmdServe(ctx context.Context, env *Env, args []string) int {
	fs := newFlagSet(env, "hermes serve")
	fs.Usage = func() { fmt.Fprintln(env.Stderr, i18n.T("cli.serve.usage")); fs.PrintDefaults() }
	home := fs.String("home", "", i18n.T("cli.flag.home"))
	listen := fs.String("listen", defaultListen, i18n.T("cli.serve.flag.listen"))
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return usageExit(err)
	}
	if len(rest) > 0 {
		fmt.Fprintln(env.Stderr, i18n.T("cli.serve.extra_args", strings.Join(rest, " ")))
		return ExitUsage
	}
	dir, err := resolveHome(env, *home)
	if err != nil {
		return fail(env, err)
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return fail(env, i18n.Wrap(err, "cli.serve.listen_failed", *listen, err))
	}
	srv := &http.Server{
		Handler:           server.New(server.Options{Home: dir, Assets: env.Assets}),
		ReadHeaderTimeout: 10 * time.Second,
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	addr := ln.Addr().(*net.TCPAddr)
	if !addr.IP.IsLoopback() {
		fmt.Fprintln(env.Stderr, i18n.T("cli.serve.not_loopback", addr.String()))
	}
	if env.Assets == nil {
		fmt.Fprintln(env.Stderr, i18n.T("cli.serve.no_ui"))
	}
	fmt.Fprintln(env.Stdout, i18n.T("cli.serve.listening", browserURL(addr), dir))

	select {
	case err := <-served:
		return fail(env, i18n.Wrap(err, "cli.serve.failed", err))
	case <-ctx.Done():
	case <-env.Interrupts:
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		// Requests still open after the grace period are cut off.
		srv.Close()
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fail(env, i18n.Wrap(err, "cli.serve.failed", err))
	}
	fmt.Fprintln(env.Stdout, i18n.T("cli.serve.stopped"))
	return ExitOK
}

// browserURL is the address to open: an unspecified host (":7777",
// "0.0.0.0:7777") is reachable on loopback too.
func browserURL(addr *net.TCPAddr) string {
	host := addr.IP.String()
	if addr.IP.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, fmt.Sprint(addr.Port)) + "/"
}
