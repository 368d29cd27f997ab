package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync/atomic"

	"hermes/backend/agent"
	"hermes/backend/bot"
	"hermes/backend/chat"
	"hermes/backend/cluster"
	"hermes/backend/config"
	"hermes/backend/homelock"
	"hermes/backend/host"
	"hermes/backend/i18n"
	_ "hermes/backend/platforms" // the chat platforms [bot] may name
	"hermes/backend/runner"
)

func init() { register(command{"bot", "cli.cmd.bot", cmdBot}) }

// cmdBot serves the chat-bot callback of [bot] until ctx is cancelled or
// Ctrl-C is pressed.
func cmdBot(ctx context.Context, env *Env, args []string) int {
	fs := newFlagSet(env, "hermes bot")
	fs.Usage = func() { fmt.Fprintln(env.Stderr, i18n.T("cli.bot.usage")); fs.PrintDefaults() }
	home := fs.String("home", "", i18n.T("cli.flag.home"))
	cfgPath := fs.String("config", "", i18n.T("cli.flag.config"))
	listen := fs.String("listen", "", i18n.T("cli.bot.flag.listen"))
	status := fs.Bool("cluster-status", false, i18n.T("cli.bot.flag.cluster_status"))
	asJSON := fs.Bool("json", false, i18n.T("cli.bot.flag.json"))
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return usageExit(err)
	}
	if len(rest) > 0 {
		fmt.Fprintln(env.Stderr, i18n.T("cli.bot.extra_args", strings.Join(rest, " ")))
		return ExitUsage
	}
	dir, err := resolveHome(env, *home)
	if err != nil {
		return fail(env, err)
	}
	if *cfgPath == "" {
		*cfgPath = config.Path(dir)
	}
	if *status {
		return botClusterStatus(ctx, env, *cfgPath, *asJSON)
	}
	cfg, err := config.Load(*cfgPath)
	if err != nil {
		return failUsage(env, err)
	}
	cfg = cfg.ResolveEnv(env.Getenv)
	if *listen != "" {
		cfg.Bot.Listen = *listen
	}
	if err := errors.Join(cfg.Validate(), cfg.Bot.Ready()); err != nil {
		return failUsage(env, err)
	}

	// The bot owns the home while it runs: a window or `hermes serve` opened
	// later attaches to it and shows, steers and stops its runs. The local
	// API for them listens on loopback only, whatever [bot] listen is. Its
	// one watcher of hermes.toml reconfigures the bot too: an edit applies
	// without a restart where it can; a broken one keeps the last good
	// config, and the log says why.
	log := slog.New(slog.NewTextHandler(env.Stderr, nil))
	for _, w := range cfg.Warnings() {
		log.Warn(w.Error())
	}
	var running atomic.Pointer[botRunning]
	cwd, _ := os.Getwd()
	h, err := host.Open(ctx, dir, host.Bot, host.Options{
		MustOwn: true, HoldStore: true, Assets: env.Assets, Version: env.Version,
		Getenv: env.Getenv, Workspace: cwd, ConfigPath: *cfgPath,
		OnConfig: func(next config.Config, err error) {
			if r := running.Load(); r != nil {
				r.reconfigure(ctx, env, log, dir, *listen, next, err)
			}
		},
		Warn: func(err error) { log.Warn(err.Error()) },
	})
	var owned *homelock.OwnedError
	if errors.As(err, &owned) {
		return fail(env, i18n.Wrap(err, "cli.bot.home_owned", owned.Owner.Mode, owned.Owner.PID, dir))
	}
	if err != nil {
		return fail(env, err)
	}
	// Until the bot shuts the host down, which stops its runs and closes
	// the toolkit and the store.
	closeHost := true
	defer func() {
		if closeHost {
			_ = h.Close(context.Background())
		}
	}()
	manager := h.Manager()
	kit, err := manager.Toolkit(ctx, cfg)
	if err != nil {
		return fail(env, err)
	}
	b := cfg.Bot
	setup, err := botSetup(ctx, dir, cfg, env.Getenv, kit, b)
	if err != nil {
		return fail(env, err)
	}
	// [cluster]: one replica of several sharing NATS JetStream; its
	// connection outlives the bot's shutdown.
	shared, leave, err := joinCluster(ctx, env, cfg, manager)
	if err != nil {
		return fail(env, err)
	}
	defer leave()
	bt, err := bot.New(bot.Options{Setup: setup, Runs: manager, Store: h.Store(), Config: b, Log: log, Shared: shared})
	if err != nil {
		return fail(env, err)
	}
	// A platform's credentials are checked before it takes a callback, so
	// that a wrong one is told now and not at the first reply.
	if c, ok := bt.Platform().(chat.Checker); ok {
		if err := c.Check(ctx); err != nil {
			return fail(env, err)
		}
	}
	running.Store(&botRunning{bot: bt, kit: kit, started: b})
	ln, err := listenTCP(b.ListenAddr())
	if err != nil {
		_ = bt.Shutdown(ctx) // what failed is told; the runs stop all the same
		return fail(env, i18n.Wrap(err, "cli.bot.listen_failed", b.ListenAddr(), err))
	}
	served := make(chan error, 1)
	go func() { served <- bt.Serve(ln) }()
	fmt.Fprintln(env.Stdout, i18n.T("cli.bot.listening", b.PlatformName(), "http://"+ln.Addr().String()+b.CallbackPath(), dir))

	select {
	case err := <-served:
		_ = bt.Shutdown(ctx) // what failed is told; the runs stop all the same
		return fail(env, i18n.Wrap(err, "cli.bot.failed", err))
	case err := <-h.APIStopped():
		_ = bt.Shutdown(ctx) // what failed is told; the runs stop all the same
		return fail(env, i18n.Wrap(err, "cli.bot.failed", err))
	case <-ctx.Done():
	case <-env.Interrupts:
	}
	fmt.Fprintln(env.Stderr, i18n.T("cli.bot.stopping"))
	grace, cancel := context.WithTimeout(context.Background(), host.StopGrace)
	defer cancel()
	go func() {
		select {
		case <-env.Interrupts:
			cancel()
		case <-grace.Done():
		}
	}()
	code := ExitOK
	if err := bt.Shutdown(grace); err != nil {
		fmt.Fprintln(env.Stderr, i18n.T("cli.bot.cut_short", err))
		code = ExitStopped
	}
	// Attached windows see the runs end before the API goes.
	closeHost = false
	_ = h.Close(grace)
	fmt.Fprintln(env.Stdout, i18n.T("cli.bot.stopped"))
	return code
}

// joinCluster makes the bot one replica of the cluster [cluster] names,
// nil without one: its state is then shared (bot.SharedBy), and the
// window and `hermes serve` attached to the cluster show and steer the
// runs of manager. leave closes the connection.
func joinCluster(ctx context.Context, env *Env, cfg config.Config, manager *runner.Manager) (_ *bot.Shared, leave func(), _ error) {
	if !cfg.Cluster.Enabled() {
		return nil, func() {}, nil
	}
	machine, _ := os.Hostname()
	cl, err := cluster.Open(ctx, cluster.Options{Config: cfg.Cluster, Name: fmt.Sprintf("hermes-bot %s/%d", machine, os.Getpid()), Version: env.Version})
	if err != nil {
		return nil, nil, err
	}
	stopRuns, err := cl.ServeRuns(manager)
	if err != nil {
		cl.Close()
		return nil, nil, err
	}
	return bot.SharedBy(cl), func() { stopRuns(); cl.Close() }, nil
}

// botRunning is what an edit of hermes.toml reconfigures once the bot has
// started.
type botRunning struct {
	bot *bot.Bot
	kit *runner.Toolkit
	// started is [bot] as the bot started, whose secrets stay redacted.
	started config.Bot
}

// reconfigure applies an edit of hermes.toml: [bot] where it can without a
// restart, and [agent], [model], [context], [tools] and the vault to the
// next task, once the model answers. A broken edit changes nothing.
func (r *botRunning) reconfigure(ctx context.Context, env *Env, log *slog.Logger, dir, listen string, next config.Config, err error) {
	if err != nil {
		log.Error(i18n.T("cli.bot.config_kept"), "err", err)
		return
	}
	next = next.ResolveEnv(env.Getenv)
	if listen != "" {
		next.Bot.Listen = listen
	}
	restart, err := r.bot.Reconfigure(next.Bot)
	if err != nil {
		log.Error(i18n.T("cli.bot.config_kept"), "err", err)
		return
	}
	if setup, err := botSetup(ctx, dir, next, env.Getenv, r.kit, r.started); err != nil {
		log.Error(i18n.T("cli.bot.model_kept"), "err", err)
	} else {
		r.bot.SetSetup(setup)
	}
	switch {
	case len(restart) > 0:
		log.Warn(i18n.T("cli.bot.config_restart", strings.Join(restart, ", ")))
	default:
		log.Info(i18n.T("cli.bot.config_applied"))
	}
}

// botSetup builds what the bot's runs are made with from cfg: the model
// (checked: it answers and takes the key), the limits, the toolkit's tools
// and [tools] policy, and a redactor that knows the bot's secrets, those of
// started too, which stay in effect until a restart.
func botSetup(ctx context.Context, dir string, cfg config.Config, getenv func(string) string, kit *runner.Toolkit, started config.Bot) (agent.Setup, error) {
	setup, err := runner.Build(ctx, dir, cfg, getenv, runner.Overrides{})
	if err != nil {
		return setup, err
	}
	if err := kit.Configure(ctx, cfg); err != nil {
		return setup, err
	}
	kit.Apply(&setup)
	// Build's redactor knows every secret of cfg; the bot's as started are
	// in use until a restart, so they stay redacted too.
	for _, s := range (config.Config{Bot: started}).Secrets(getenv) {
		setup.Redactor.Add(s)
	}
	return setup, nil
}

// failUsage prints a config mistake and returns ExitUsage: the bot was not
// started.
func failUsage(env *Env, err error) int {
	fmt.Fprintln(env.Stderr, i18n.T("cli.error", err.Error()))
	return ExitUsage
}
