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
	setUsage(fs, "cli.bot.usage")
	home := fs.String("home", "", "cli.flag.home")
	cfgPath := fs.String("config", "", "cli.flag.config")
	listen := fs.String("listen", "", "cli.bot.flag.listen")
	status := fs.Bool("cluster-status", false, "cli.bot.flag.cluster_status")
	asJSON := fs.Bool("json", false, "cli.bot.flag.json")
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return usageExit(err)
	}
	if len(rest) > 0 {
		key := "cli.bot.extra_args"
		if rest[0] == "status" {
			key = "cli.bot.status_arg" // the subcommand people guess
		}
		fmt.Fprintln(env.Stderr, i18n.T(key, strings.Join(rest, " ")))
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
	cfg, err := botConfig(env, *cfgPath, *listen)
	if err != nil {
		return failUsage(env, err)
	}

	// The bot owns the home while it runs: a window or `hermes serve` opened
	// later attaches to it and shows, steers and stops its runs. The local
	// API for them listens on loopback only, whatever [bot] listen is. Its
	// one watcher of hermes.toml reconfigures the bot too: an edit applies
	// without a restart where it can; a broken one keeps the last good
	// config, and the log says why. With [cluster], the bot is one replica
	// of several sharing NATS JetStream (host.Replica).
	log := slog.New(slog.NewTextHandler(env.Stderr, nil))
	for _, w := range cfg.Warnings() {
		log.Warn(w.Error())
	}
	var running atomic.Pointer[botRunning]
	cwd, _ := os.Getwd()
	h, err := host.Open(ctx, dir, host.Bot, host.Options{
		MustOwn: true, HoldStore: true, Cluster: true, Assets: env.Assets, Version: env.Version,
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
	// A failure below stops the host as a stop does (a second stop does
	// nothing); its error is told.
	defer func() { _ = h.Stop(env.Interrupts) }()
	bt, kit, err := startBot(ctx, env, h, cfg, log)
	if err != nil {
		return fail(env, err)
	}
	b := cfg.Bot
	running.Store(&botRunning{bot: bt, kit: kit, started: b})
	ln, err := listenTCP(b.ListenAddr())
	if err != nil {
		_ = bt.Shutdown(ctx) // what failed is told; the runs stop all the same
		return fail(env, i18n.Wrap(err, "cli.bot.listen_failed", b.ListenAddr(), err))
	}
	// The host stops taking callbacks, then stops the bot, before the runs.
	h.Serve(ln, bt)
	fmt.Fprintln(env.Stdout, i18n.T("cli.bot.listening", b.PlatformName(), "http://"+ln.Addr().String()+b.CallbackPath(), dir))

	select {
	case err := <-h.APIStopped():
		return fail(env, i18n.Wrap(err, "cli.bot.failed", err))
	case <-ctx.Done():
	case <-env.Interrupts:
	}
	fmt.Fprintln(env.Stderr, i18n.T("cli.bot.stopping"))
	code := ExitOK
	// Attached windows see the runs end before the API goes.
	if err := h.Stop(env.Interrupts); err != nil {
		fmt.Fprintln(env.Stderr, i18n.T("cli.bot.cut_short", err))
		code = ExitStopped
	}
	fmt.Fprintln(env.Stdout, i18n.T("cli.bot.stopped"))
	return code
}

// botConfig is the config the bot starts with: the file at path, its
// environment references resolved, listen (--listen) for [bot] listen,
// checked and with what the platform needs.
func botConfig(env *Env, path, listen string) (config.Config, error) {
	cfg, err := config.Load(path)
	if err != nil {
		return cfg, err
	}
	cfg = cfg.ResolveEnv(env.Getenv)
	if listen != "" {
		cfg.Bot.Listen = listen
	}
	return cfg, errors.Join(cfg.Validate(), cfg.Bot.Ready())
}

// startBot builds the bot of cfg over h's runs and hermes.db, one replica
// of h.Replica when the host joined a cluster, its model checked and its
// platform's credentials too, before it takes a callback, so that a wrong
// one is told now and not at the first reply.
func startBot(ctx context.Context, env *Env, h *host.Host, cfg config.Config, log *slog.Logger) (*bot.Bot, *runner.Toolkit, error) {
	kit, err := h.Manager().Toolkit(ctx, cfg)
	if err != nil {
		return nil, nil, err
	}
	setup, err := botSetup(ctx, h.Home(), cfg, env.Getenv, kit, cfg.Bot)
	if err != nil {
		return nil, nil, err
	}
	var shared *bot.Shared
	if cl := h.Replica(); cl != nil {
		shared = bot.SharedBy(cl)
	}
	bt, err := bot.New(bot.Options{Setup: setup, Runs: h.Manager(), Store: h.Store(), Config: cfg.Bot, Log: log, Shared: shared})
	if err != nil {
		return nil, nil, err
	}
	if c, ok := bt.Platform().(chat.Checker); ok {
		if err := c.Check(ctx); err != nil {
			_ = bt.Shutdown(ctx) // the check's error is told; a replica stops taking tasks
			return nil, nil, err
		}
	}
	return bt, kit, nil
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
	setup, err := runner.BuildWith(ctx, dir, cfg, getenv, runner.Overrides{}, func() (*runner.Toolkit, error) { return kit, nil })
	if err != nil {
		return setup, err
	}
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
