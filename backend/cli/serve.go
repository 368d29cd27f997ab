package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"hermes/backend/i18n"
	"hermes/backend/remote"
	"hermes/backend/runner"
)

const defaultListen = "127.0.0.1:7777"

// shutdownGrace is how long open requests get to finish when serve stops.
const shutdownGrace = 5 * time.Second

// runStopGrace is how long live runs get to reach a safe point when serve
// stops; then they are cancelled (a second Ctrl-C does it at once).
const runStopGrace = 30 * time.Second

// cmdServe serves the web UI and the local API until ctx is cancelled or
// Ctrl-C is pressed; then the live runs stop at a safe point, with their
// checkpoints saved.
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
	token := newToken()
	// The first process to serve a home owns it; a later one attaches to the
	// owner and serves the owner's runs (hermes.lock, backend/remote).
	lockAddr, lockLn, err := ownerListener(ln)
	if err != nil {
		ln.Close()
		return fail(env, err)
	}
	own, client, err := remote.Share(ctx, dir, remote.Lock{Addr: lockAddr, Token: token, Mode: remote.ModeServe})
	if err != nil {
		ln.Close()
		closeListener(lockLn)
		return fail(env, err)
	}
	var runs runner.Runs
	var manager *runner.Manager
	var ownerLock *remote.Lock
	var ownerGone <-chan struct{}
	if client != nil {
		closeListener(lockLn)
		lockLn = nil
		runs, ownerGone = client, client.Gone()
		fmt.Fprintln(env.Stdout, client.Attached())
	} else {
		defer own.Release()
		// Runs that name no workspace work where serve was started, as with
		// `hermes run`.
		cwd, _ := os.Getwd()
		manager = runner.New(runner.Options{Home: dir, Getenv: env.Getenv, Workspace: cwd, Toolkit: runner.OpenToolkit})
		runs, ownerLock = manager, &own.Lock
	}
	// Event streams never go idle, so they end with this context rather than
	// holding Shutdown up for its whole grace period.
	streams, endStreams := context.WithCancel(context.Background())
	defer endStreams()
	if manager != nil {
		watchHome(streams, env, manager)
	}
	// A name given to --listen is one the browser may use in Host.
	srv := localAPI(runs, token, env.Assets, ownerLock, streams, *listen)
	served := make(chan error, 2)
	go func() { served <- srv.Serve(ln) }()
	if lockLn != nil {
		go func() { served <- srv.Serve(lockLn) }()
	}

	addr := ln.Addr().(*net.TCPAddr)
	if !addr.IP.IsLoopback() {
		fmt.Fprintln(env.Stderr, i18n.T("cli.serve.not_loopback", addr.String()))
	}
	if env.Assets == nil {
		fmt.Fprintln(env.Stderr, i18n.T("cli.serve.no_ui"))
	}
	fmt.Fprintln(env.Stdout, i18n.T("cli.serve.listening", browserURL(addr)+"?token="+token, dir))

	var serveErr error
	select {
	case serveErr = <-served:
	case <-ctx.Done():
	case <-env.Interrupts:
	case <-ownerGone:
		serveErr = i18n.Wrap(remote.ErrOwnerGone, "remote.owner_gone", client.Owner().Mode, client.Owner().PID)
	}
	if manager != nil {
		stopRuns(env, manager)
	} else {
		_ = client.Shutdown(context.Background()) // its streams end at once
	}
	endStreams()
	shutdownCtx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		// Requests still open after the grace period are cut off.
		srv.Close()
	}
	if serveErr == nil {
		serveErr = <-served
	}
	if serveErr != nil && !errors.Is(serveErr, http.ErrServerClosed) {
		return fail(env, i18n.Wrap(serveErr, "cli.serve.failed", serveErr))
	}
	fmt.Fprintln(env.Stdout, i18n.T("cli.serve.stopped"))
	return ExitOK
}

// stopRuns stops the live runs at their next safe point, cancelling them
// after runStopGrace or at a second Ctrl-C.
func stopRuns(env *Env, runs *runner.Manager) {
	if n := len(runs.Live()); n > 0 {
		fmt.Fprintln(env.Stderr, i18n.T("cli.serve.stopping_runs", n))
	}
	ctx, cancel := context.WithTimeout(context.Background(), runStopGrace)
	defer cancel()
	go func() {
		select {
		case <-env.Interrupts:
			cancel()
		case <-ctx.Done():
		}
	}()
	if err := runs.Shutdown(ctx); err != nil {
		fmt.Fprintln(env.Stderr, i18n.T("cli.serve.runs_cancelled"))
	}
}

// newToken is the secret the printed URL carries.
func newToken() string { return remote.NewToken() }

// browserURL is the address to open: an unspecified host (":7777",
// "0.0.0.0:7777") is reachable on loopback too.
func browserURL(addr *net.TCPAddr) string {
	host := addr.IP.String()
	if addr.IP.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, fmt.Sprint(addr.Port)) + "/"
}
