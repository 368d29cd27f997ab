package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"hermes/backend/agent"
	"hermes/backend/bot"
	"hermes/backend/config"
	"hermes/backend/i18n"
	"hermes/backend/memory"
	"hermes/backend/remote"
	"hermes/backend/runner"
)

func init() { register(command{"bot", "cli.cmd.bot", cmdBot}) }

// botGrace is how long running tasks get to reach a safe point when the bot
// stops; a second Ctrl-C cuts them short at once.
const botGrace = 30 * time.Second

// cmdBot serves the chat-bot callback of [bot] until ctx is cancelled or
// Ctrl-C is pressed.
func cmdBot(ctx context.Context, env *Env, args []string) int {
	fs := newFlagSet(env, "hermes bot")
	fs.Usage = func() { fmt.Fprintln(env.Stderr, i18n.T("cli.bot.usage")); fs.PrintDefaults() }
	home := fs.String("home", "", i18n.T("cli.flag.home"))
	cfgPath := fs.String("config", "", i18n.T("cli.flag.config"))
	listen := fs.String("listen", "", i18n.T("cli.bot.flag.listen"))
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
	// API for them listens on loopback only, whatever [bot] listen is.
	apiLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fail(env, i18n.Wrap(err, "cli.serve.listen_failed", "127.0.0.1:0", err))
	}
	defer apiLn.Close() // served, and so closed, once the bot owns the home
	token := newToken()
	own, err := remote.Claim(ctx, dir, remote.Lock{Addr: apiLn.Addr().String(), Token: token, Mode: remote.ModeBot})
	var owned *remote.OwnedError
	if errors.As(err, &owned) {
		return fail(env, i18n.Wrap(err, "cli.bot.home_owned", owned.Owner.Mode, owned.Owner.PID, dir))
	}
	if err != nil {
		return fail(env, err)
	}
	defer own.Release()

	store, err := memory.Open(runner.StorePath(dir))
	if err != nil {
		return fail(env, err)
	}
	defer store.Close()
	cwd, _ := os.Getwd()
	manager := runner.New(runner.Options{
		Home: dir, Getenv: env.Getenv, Workspace: cwd, Toolkit: runner.OpenToolkit, Store: store, ConfigPath: *cfgPath,
	})
	// Until the bot shuts the manager down, which closes the toolkit too.
	shutdownManager := true
	defer func() {
		if shutdownManager {
			manager.Shutdown(context.Background())
		}
	}()
	// Served from the moment the lock names it, so that a process that
	// reads the lock meanwhile finds its owner answering.
	streams, endStreams := context.WithCancel(context.Background())
	defer endStreams()
	api := localAPI(manager, token, env.Assets, &own.Lock, streams)
	served := make(chan error, 2)
	go func() { served <- api.Serve(apiLn) }()
	defer api.Close() // when the bot never started; else shut down below
	kit, err := manager.Toolkit(ctx, cfg)
	if err != nil {
		return fail(env, err)
	}
	b := cfg.Bot
	setup, err := botSetup(ctx, dir, cfg, env.Getenv, kit, b)
	if err != nil {
		return fail(env, err)
	}

	log := slog.New(slog.NewTextHandler(env.Stderr, nil))
	bt, err := bot.New(bot.Options{Setup: setup, Runs: manager, Store: store, Config: b, Log: log})
	if err != nil {
		return fail(env, err)
	}
	if api := bt.API(); api != nil {
		if err := api.Check(ctx); err != nil {
			return fail(env, i18n.Wrap(err, "cli.bot.wecom_refused", err))
		}
	}
	shutdownManager = false // bt.Shutdown does it
	// An edit of hermes.toml applies without a restart where it can; a
	// broken one keeps the last good config, and the log says why.
	watchCtx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	err = config.Watch(watchCtx, *cfgPath, func(next config.Config) {
		next = next.ResolveEnv(env.Getenv)
		if *listen != "" {
			next.Bot.Listen = *listen
		}
		restart, err := bt.Reconfigure(next.Bot)
		if err != nil {
			log.Error(i18n.T("cli.bot.config_kept"), "err", err)
			return
		}
		// [agent], [model], [context] and the [tools] policy: the next task
		// is made with them, once the model answers.
		if setup, err := botSetup(watchCtx, dir, next, env.Getenv, kit, b); err != nil {
			log.Error(i18n.T("cli.bot.model_kept"), "err", err)
		} else {
			bt.SetSetup(setup)
		}
		switch {
		case len(restart) > 0:
			log.Warn(i18n.T("cli.bot.config_restart", strings.Join(restart, ", ")))
		default:
			log.Info(i18n.T("cli.bot.config_applied"))
		}
	}, func(err error) { log.Error(i18n.T("cli.bot.config_kept"), "err", err) })
	if err != nil {
		log.Warn(i18n.T("cli.bot.config_unwatched"), "err", err)
	}
	// The same file, for the windows attached: they show a broken edit as a
	// banner, and start their own runs on the last good config.
	if err := manager.WatchConfig(watchCtx); err != nil {
		log.Warn(i18n.T("cli.bot.config_unwatched"), "err", err)
	}
	ln, err := net.Listen("tcp", b.ListenAddr())
	if err != nil {
		bt.Shutdown(ctx)
		return fail(env, i18n.Wrap(err, "cli.bot.listen_failed", b.ListenAddr(), err))
	}
	srv := &http.Server{Handler: bt.Handler(), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second}
	go func() { served <- srv.Serve(ln) }()
	fmt.Fprintln(env.Stdout, i18n.T("cli.bot.listening", b.PlatformName(), "http://"+ln.Addr().String()+b.CallbackPath(), dir))

	select {
	case err := <-served:
		bt.Shutdown(ctx)
		return fail(env, i18n.Wrap(err, "cli.bot.failed", err))
	case <-ctx.Done():
	case <-env.Interrupts:
	}
	fmt.Fprintln(env.Stderr, i18n.T("cli.bot.stopping"))
	graceCtx, cancel := context.WithTimeout(context.Background(), botGrace)
	defer cancel()
	go func() {
		select {
		case <-env.Interrupts:
			cancel()
		case <-graceCtx.Done():
		}
	}()
	// No new callbacks; those being answered finish first.
	if err := srv.Shutdown(graceCtx); err != nil {
		srv.Close()
	}
	code := ExitOK
	if err := bt.Shutdown(graceCtx); err != nil {
		fmt.Fprintln(env.Stderr, i18n.T("cli.bot.cut_short", err))
		code = ExitStopped
	}
	// Attached windows see the runs end before the API goes.
	endStreams()
	if err := api.Shutdown(graceCtx); err != nil {
		api.Close()
	}
	fmt.Fprintln(env.Stdout, i18n.T("cli.bot.stopped"))
	return code
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
	kit.Configure(cfg)
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
