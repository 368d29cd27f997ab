// Package host is the one way a Hermes process opens its home. The window,
// `hermes serve`, `hermes bot` and `hermes run` each choose a mode and
// render; Open does the rest. The first process to open a home owns it: it
// runs the home's runs in a runner.Manager, serves them on the loopback
// address that hermes.lock names, follows hermes.toml, checks for updates
// and owns the notices. A later process attaches to the owner through that
// address and gets the same runapi.Runs from a remote.Client.
package host

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"hermes/backend/cluster"
	"hermes/backend/config"
	"hermes/backend/homelock"
	"hermes/backend/i18n"
	"hermes/backend/remote"
	"hermes/backend/runapi"
	"hermes/backend/runner"
	"hermes/backend/server"
	"hermes/backend/store"
	"hermes/backend/update"
)

// Mode is what the process that opens a home is, as hermes.lock names it.
type Mode = string

// The modes a process opens a home in.
const (
	Desktop Mode = homelock.ModeDesktop
	Serve   Mode = homelock.ModeServe
	Bot     Mode = homelock.ModeBot
	Run     Mode = homelock.ModeRun
)

// StopGrace is how long the live runs get to reach their next safe point
// (checkpoints saved) when the process that owns them stops — the window
// closes, `hermes serve` or `hermes bot` ends — before they are cancelled
// and a resume redoes the iteration they were in. One grace for every entry
// point, so a run stops the same way whichever process holds it; Close
// takes it as a context, which a second Ctrl-C may end sooner.
const StopGrace = 30 * time.Second

// apiGrace is how long open requests to the local API get to finish when
// the host closes, after the runs have stopped.
const apiGrace = 5 * time.Second

// Options say how a process opens its home. The zero value opens it as the
// window does, with no UI to serve.
type Options struct {
	// Listener, when set, serves the local API and the web UI besides the
	// lock's address (`hermes serve --listen`). A listener on loopback or on
	// every address is the lock's address too; on another address, a free
	// loopback port is. The host closes it.
	Listener net.Listener
	// Hosts are names the API is reached at besides its addresses
	// (server.Options.Hosts).
	Hosts []string
	// Assets is the built web UI, served at / of the local API.
	Assets fs.FS
	// MustOwn refuses to attach: when a live process owns the home, Open
	// fails with a *homelock.OwnedError (the bot keeps its sessions in
	// hermes.db, which only the owner opens).
	MustOwn bool
	// HoldStore keeps hermes.db open for the host's life (Store), for a
	// process that reads it besides its runs (the bot).
	HoldStore bool
	// NewToken replaces the home's token (homelock.HomeToken) before the API
	// serves (`hermes serve --new-token`): browsers let in with the old one
	// must open the new URL.
	NewToken bool

	// Getenv reads the environment; nil is os.Getenv.
	Getenv func(string) string
	// Workspace is where a run that names none works when [agent]
	// workspace is not set either (runner.Options.Workspace).
	Workspace string
	// ConfigPath is the hermes.toml the owner follows; "" is the home's.
	ConfigPath string
	// Adjust changes every config the owner's runs get (`--vault`).
	Adjust func(*config.Config)
	// OnConfig hears of every edit of hermes.toml the owner's one watcher
	// sees (runner.Options.OnConfig).
	OnConfig func(config.Config, error)
	// Cluster shows the live runs of the cluster that hermes.toml's
	// [cluster] nats_url names beside the home's, to steer alike (the window,
	// `hermes serve`): Runs are both, through a backend/cluster Observer
	// that takes no tasks. Without a nats_url it does nothing; a cluster
	// that does not answer leaves the home's runs alone, and Warn says so.
	// An owner in mode Bot joins the cluster instead, as one of its
	// replicas (Replica), whose runs the observers see; a cluster that does
	// not answer fails Open, since the replicas share what the bot keeps.
	Cluster bool

	// Version is the running version, which the update check compares with
	// the feed's releases.
	Version string
	// Restart: this process can install an update and start the new
	// version (the window); others say to run `hermes update`.
	Restart bool
	// Warn is told what goes wrong that does not stop the home from being
	// served (a config that cannot be watched, an update check that cannot
	// start); nil logs it.
	Warn func(error)
}

// Host is a process's hold on its home: the runs, and the local API that
// serves them.
type Host struct {
	home  string
	mode  Mode
	token string

	runs    runapi.Runs
	manager *runner.Manager   // nil when attached
	client  *remote.Client    // nil when owner
	own     *homelock.Owner   // nil when attached
	store   *store.Store      // nil without Options.HoldStore
	cluster *cluster.Observer // nil without Options.Cluster and a cluster
	replica *cluster.Cluster  // nil unless an owner in mode Bot joined one
	// stopReplica stops serving the Manager's runs to the cluster.
	stopReplica func()

	// service is served on its own listener (Serve); nil until then.
	service    Service
	serviceSrv *http.Server

	api    *http.Server
	served chan error
	// endStreams ends the API's event streams, which never go idle, so that
	// Shutdown need not wait them out; stopWatch ends the watchers.
	endStreams context.CancelFunc
	watchCtx   context.Context
	stopWatch  context.CancelFunc

	mu      sync.Mutex
	checker *update.Checker
	closed  bool
}

// Open opens home in mode: it claims the home, or attaches to the live
// process that owns it (unless o.MustOwn), and serves the local API on the
// lock's address (and o.Listener). ctx bounds the opening only. Close the
// host when done.
func Open(ctx context.Context, home string, mode Mode, o Options) (*Host, error) {
	warn := o.Warn
	if warn == nil {
		warn = func(err error) { log.Print(err) }
	}
	token, err := apiToken(home, mode, o.NewToken)
	if err != nil {
		closeListener(o.Listener)
		return nil, err
	}
	lockAddr, lockLn, err := lockListener(o.Listener)
	if err != nil {
		closeListener(o.Listener)
		return nil, err
	}
	// One error each from o.Listener, the lock's listener and a Service's.
	h := &Host{home: home, mode: mode, token: token, served: make(chan error, 3)}
	me := homelock.Lock{Addr: lockAddr, Token: h.token, Mode: mode}
	if o.MustOwn {
		h.own, err = homelock.Claim(ctx, home, me)
	} else {
		h.own, h.client, err = share(ctx, home, me)
	}
	if err != nil {
		closeListener(o.Listener)
		closeListener(lockLn)
		return nil, err
	}
	var owner *homelock.Lock
	if h.client != nil {
		closeListener(lockLn)
		lockLn = nil
		h.runs = h.client
	} else {
		if o.HoldStore {
			if h.store, err = OpenStore(home, 0); err != nil {
				closeListener(o.Listener)
				closeListener(lockLn)
				h.letGo()
				return nil, err
			}
		}
		// Only a long-lived process watches the vault; a run's own opens it
		// (on first use) and checks it for changes once.
		kit := runner.OpenWatchedToolkit
		if mode == Run {
			kit = runner.OpenToolkit
		}
		h.manager = runner.New(runner.Options{
			Home: home, Getenv: o.Getenv, Workspace: o.Workspace, Toolkit: kit, Store: h.store,
			ConfigPath: o.ConfigPath, Adjust: o.Adjust, OnConfig: o.OnConfig,
		})
		h.runs, owner = h.manager, &h.own.Lock
	}
	switch {
	case o.Cluster && mode == Bot && h.manager != nil:
		if err := h.join(ctx, o); err != nil {
			closeListener(o.Listener)
			closeListener(lockLn)
			h.letGo()
			return nil, err
		}
	case o.Cluster:
		h.observeCluster(mode, o, warn)
	}
	streams, endStreams := context.WithCancel(context.Background())
	h.endStreams = endStreams
	h.api = server.NewHTTPServer(server.Options{Runs: h.runs, Token: h.token, Assets: o.Assets, Owner: owner, Hosts: o.Hosts})
	h.api.BaseContext = func(net.Listener) context.Context { return streams }
	// Served from the moment the lock names the address, so that a process
	// that reads the lock meanwhile finds its owner answering.
	for _, ln := range []net.Listener{o.Listener, lockLn} {
		if ln != nil {
			go func() { h.served <- h.api.Serve(ln) }()
		}
	}
	h.watchCtx, h.stopWatch = context.WithCancel(context.Background())
	if h.manager != nil {
		h.follow(mode, o, warn)
	}
	return h, nil
}

// share makes this process the owner of home, its local API at me.Addr
// (listening already) taking me.Token, or, when a live process owns the
// home, attaches to that process. Exactly one of the two results is set:
// serve the home's runs and Release the Owner on exit, or use the Client.
func share(ctx context.Context, home string, me homelock.Lock) (*homelock.Owner, *remote.Client, error) {
	own, err := homelock.Claim(ctx, home, me)
	var owned *homelock.OwnedError
	if !errors.As(err, &owned) {
		return own, nil, err
	}
	c, err := remote.Dial(ctx, owned.Owner)
	if err != nil {
		return nil, nil, err
	}
	return nil, c, nil
}

// Attach attaches to the live process that owns home and never owns it
// itself, for a command that only steers that process's runs (`hermes
// pin`); the error wraps homelock.ErrNotOwner when no live process owns the
// home. It serves nothing.
func Attach(ctx context.Context, home string) (*Host, error) {
	lock, err := homelock.Probe(ctx, home)
	if err != nil {
		return nil, err
	}
	c, err := remote.Dial(ctx, lock)
	if err != nil {
		return nil, err
	}
	return &Host{home: home, runs: c, client: c, served: make(chan error)}, nil
}

// letGo closes what an owner holds before its API serves: hermes.db and
// the lock.
func (h *Host) letGo() {
	if h.store != nil {
		_ = h.store.Close() // nothing was written to it yet; the open's error is told
	}
	h.own.Release()
}

// follow makes the owner follow hermes.toml (a good edit applies to the
// next run, a broken one keeps the last good config) and check for
// updates, both told as notices. A `hermes run` that owns the home for one
// run does neither: its notices would outlive no one, every start and
// Settings reads hermes.toml afresh anyway, and closing a file watcher
// holds the process's exit for ~11 ms while the kernel tears it down.
func (h *Host) follow(mode Mode, o Options, warn func(error)) {
	if mode == Run {
		return
	}
	if err := h.manager.WatchConfig(h.watchCtx); err != nil {
		warn(i18n.Wrap(err, "host.config_unwatched", err)) // only edits need a restart
	}
	c, err := h.manager.CheckForUpdates(h.watchCtx, runner.UpdateOptions{Version: o.Version, Restart: o.Restart})
	if err != nil {
		warn(err)
	}
	h.checker = c
}

// Runs are the home's runs: this process's Manager when it owns the home,
// else the client of the owner.
func (h *Host) Runs() runapi.Runs { return h.runs }

// Manager is this process's Manager, nil when it is attached.
func (h *Host) Manager() *runner.Manager { return h.manager }

// Owns reports whether this process owns the home.
func (h *Host) Owns() bool { return h.manager != nil }

// Home is the home directory.
func (h *Host) Home() string { return h.home }

// Token is the secret every request to the local API carries.
func (h *Host) Token() string { return h.token }

// Store is hermes.db, held open with Options.HoldStore; nil otherwise.
func (h *Host) Store() *store.Store { return h.store }

// Owner is the lock of the process that owns the home: this one's, or the
// one attached to.
func (h *Host) Owner() homelock.Lock {
	if h.client != nil {
		return h.client.Owner()
	}
	return h.own.Lock
}

// Attached says, for a person, which process this one is attached to; ""
// when it owns the home.
func (h *Host) Attached() string {
	if h.client == nil {
		return ""
	}
	return h.client.Attached()
}

// Gone is closed when the owner this process is attached to stops
// answering; never, for the owner.
func (h *Host) Gone() <-chan struct{} {
	if h.client == nil {
		return nil
	}
	return h.client.Gone()
}

// OwnerGone is the error that says the owner stopped answering.
func (h *Host) OwnerGone() error {
	o := h.Owner()
	return i18n.Wrap(remote.ErrOwnerGone, "remote.owner_gone", o.Mode, o.PID)
}

// APIStopped receives the error of each listener the local API, or the
// Service, stops serving on; ServeError tells one that Close stopped (nil)
// from one that failed.
func (h *Host) APIStopped() <-chan error { return h.served }

// Notices is the owner's board of notices (a broken hermes.toml, an update
// on offer); nil when attached.
func (h *Host) Notices() *runner.NoticeBoard {
	if h.manager == nil {
		return nil
	}
	return h.manager.Notices()
}

// Stop closes the host with the one grace every entry point gives its runs,
// StopGrace, which cut ends sooner (a second Ctrl-C; nil never does).
func (h *Host) Stop(cut <-chan os.Signal) error {
	grace, cancel := context.WithTimeout(context.Background(), StopGrace)
	defer cancel()
	go func() {
		select {
		case <-cut:
			cancel()
		case <-grace.Done():
		}
	}()
	return h.Close(grace)
}

// Close stops the Service, if one is served, then the live runs at their
// next safe point (checkpoints saved), cancelling them when grace ends
// first, and returns grace's error then; then it stops following the
// config, ends the local API, leaves the cluster and lets go of the home.
// Attached, the owner's runs go on: they are the owner's to stop.
func (h *Host) Close(grace context.Context) error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil
	}
	h.closed = true
	service, serviceSrv := h.service, h.serviceSrv
	h.mu.Unlock()
	var err error
	if service != nil {
		// No new requests; those being answered finish first.
		if serviceSrv.Shutdown(grace) != nil {
			_ = serviceSrv.Close() // the grace is over: those still open are cut
		}
		err = service.Shutdown(grace)
	}
	if h.manager != nil {
		err = errors.Join(err, h.manager.Shutdown(grace))
	} else {
		_ = h.client.Shutdown(context.Background()) // its streams end at once
	}
	if h.api != nil {
		h.stopWatch()
		// Watchers see the runs end before the API goes.
		h.endStreams()
		ctx, cancel := context.WithTimeout(context.Background(), apiGrace)
		defer cancel()
		if h.api.Shutdown(ctx) != nil {
			_ = h.api.Close() // requests still open after the grace are cut off
		}
	}
	if h.cluster != nil {
		h.cluster.Close() // after the API: its streams of the replicas' runs have ended
	}
	if h.replica != nil {
		// After the runs: the bot's ends went through it.
		h.stopReplica()
		h.replica.Close()
	}
	if h.store != nil {
		if cerr := h.store.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}
	if h.own != nil {
		h.own.Release()
	}
	return err
}

// ServeError is the error a listener of the local API stopped with, nil
// when it stopped because the host closed.
func ServeError(err error) error {
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// apiToken is the token of the process's local API: the home's, which
// outlives the process, so that a browser let in stays in when the
// process starts again. A `hermes run` that owns the home for its run is
// reached only by the processes that attach to it through the lock, so it
// takes a token of its own and does not touch the home's file.
func apiToken(home string, mode Mode, renew bool) (string, error) {
	if mode == Run && !renew {
		return homelock.NewToken(), nil
	}
	return homelock.HomeToken(home, renew)
}

// lockListener gives the loopback address that hermes.lock names for a
// local API listening on ln, and the listener to serve it on when it is
// not ln: with no ln, a free loopback port; ln on loopback or on every
// address answers on loopback already; on another address, a free
// loopback port besides.
func lockListener(ln net.Listener) (string, net.Listener, error) {
	if ln != nil {
		addr := ln.Addr().(*net.TCPAddr)
		if addr.IP.IsLoopback() {
			return addr.String(), nil, nil
		}
		if addr.IP.IsUnspecified() {
			return net.JoinHostPort("127.0.0.1", fmt.Sprint(addr.Port)), nil, nil
		}
	}
	// Multipath TCP has nothing to add on loopback, and Go's first MPTCP
	// listener probes the kernel for it.
	var lc net.ListenConfig
	lc.SetMultipathTCP(false)
	extra, err := lc.Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, i18n.Wrap(err, "host.listen_failed", err)
	}
	return extra.Addr().String(), extra, nil
}

func closeListener(ln net.Listener) {
	if ln != nil {
		_ = ln.Close()
	}
}
