package cli

import (
	"context"
	"fmt"
	"net"
	"os"
	"strings"

	"hermes/backend/host"
	"hermes/backend/i18n"
)

const defaultListen = "127.0.0.1:7777"

// cmdServe serves the web UI and the local API until ctx is cancelled or
// Ctrl-C is pressed; then the live runs stop at a safe point, with their
// checkpoints saved.
func cmdServe(ctx context.Context, env *Env, args []string) int {
	fs := newFlagSet(env, "hermes serve")
	setUsage(fs, "cli.serve.usage")
	home := fs.String("home", "", "cli.flag.home")
	listen := fs.String("listen", defaultListen, "cli.serve.flag.listen")
	newToken := fs.Bool("new-token", false, "cli.serve.flag.new_token")
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
	ln, err := listenTCP(*listen)
	if err != nil {
		return fail(env, i18n.Wrap(err, "cli.serve.listen_failed", *listen, err))
	}
	// The first process to serve a home owns it; a later one attaches to the
	// owner and serves the owner's runs (backend/host). Runs that name no
	// workspace work where serve was started, as with `hermes run`. With
	// [cluster] nats_url, the replicas' runs are served beside the home's.
	cwd, _ := os.Getwd()
	h, err := host.Open(ctx, dir, host.Serve, host.Options{
		// A name given to --listen is one the browser may use in Host.
		Listener: ln, Hosts: []string{*listen}, Assets: env.Assets, NewToken: *newToken,
		Getenv: env.Getenv, Workspace: cwd, Version: env.Version, Cluster: true,
		// The server still works: only edits need a restart, and an
		// unreachable cluster leaves the home served.
		Warn: func(err error) { fmt.Fprintln(env.Stderr, err) },
	})
	if err != nil {
		return fail(env, err)
	}
	if !h.Owns() {
		fmt.Fprintln(env.Stdout, h.Attached())
	}
	addr := ln.Addr().(*net.TCPAddr)
	if !addr.IP.IsLoopback() {
		fmt.Fprintln(env.Stderr, i18n.T("cli.serve.not_loopback", addr.String()))
	}
	if env.Assets == nil {
		fmt.Fprintln(env.Stderr, i18n.T("cli.serve.no_ui"))
	}
	fmt.Fprintln(env.Stdout, i18n.T("cli.serve.listening", browserURL(addr)+"?token="+h.Token(), dir))
	if h.ObservesCluster() {
		fmt.Fprintln(env.Stdout, i18n.T("cli.serve.cluster"))
	}

	var serveErr error
	select {
	case serveErr = <-h.APIStopped():
	case <-ctx.Done():
	case <-env.Interrupts:
	case <-h.Gone():
		serveErr = h.OwnerGone()
	}
	if err := closeHost(env, h); err != nil {
		fmt.Fprintln(env.Stderr, i18n.T("cli.serve.runs_cancelled"))
	}
	if serveErr = host.ServeError(serveErr); serveErr != nil {
		return fail(env, i18n.Wrap(serveErr, "cli.serve.failed", serveErr))
	}
	fmt.Fprintln(env.Stdout, i18n.T("cli.serve.stopped"))
	return ExitOK
}

// closeHost lets go of the home: the live runs of an owner stop at their
// next safe point, cancelled after host.StopGrace or at a second Ctrl-C. The
// error says they were cancelled.
func closeHost(env *Env, h *host.Host) error {
	if h.Owns() {
		if n := len(h.Manager().Live()); n > 0 {
			fmt.Fprintln(env.Stderr, i18n.T("cli.serve.stopping_runs", n))
		}
	}
	return h.Stop(env.Interrupts)
}

// browserURL is the address to open: an unspecified host (":7777",
// "0.0.0.0:7777") is reachable on loopback too.
func browserURL(addr *net.TCPAddr) string {
	ip := addr.IP.String()
	if addr.IP.IsUnspecified() {
		ip = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(ip, fmt.Sprint(addr.Port)) + "/"
}
