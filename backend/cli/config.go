package cli

import (
	"context"
	"fmt"
	"strings"

	"hermes/backend/config"
	"hermes/backend/i18n"
)

func init() { register(command{"config", "cli.cmd.config", cmdConfig}) }

// cmdConfig is `hermes config init|check|path|show`.
func cmdConfig(_ context.Context, env *Env, args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(env.Stderr, i18n.T("cli.config.usage"))
		return ExitUsage
	}
	sub, args := args[0], args[1:]
	fs := newFlagSet(env, "hermes config "+sub)
	setUsage(fs, "cli.config.usage")
	home := fs.String("home", "", "cli.flag.home")
	file := fs.String("config", "", "cli.config.flag.config")
	var force *bool
	var lang *string
	if sub == "init" {
		force = fs.Bool("force", false, "cli.config.flag.force")
		lang = fs.String("lang", string(i18n.Current()), "cli.config.flag.lang")
	}
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return usageExit(err)
	}
	// check takes the file as its argument too: `hermes config check FILE`.
	if sub == "check" && len(rest) == 1 && *file == "" {
		*file, rest = rest[0], nil
	}
	if len(rest) > 0 {
		fmt.Fprintln(env.Stderr, i18n.T("cli.config.extra_args", strings.Join(rest, " ")))
		return ExitUsage
	}
	path := *file
	if path == "" {
		dir, err := resolveHome(env, *home)
		if err != nil {
			return fail(env, err)
		}
		path = config.Path(dir)
	}
	switch sub {
	case "init":
		return configInit(env, path, i18n.Parse(*lang), *force)
	case "check":
		return configCheck(env, path)
	case "path":
		fmt.Fprintln(env.Stdout, path)
		return ExitOK
	case "show":
		return configShow(env, path)
	}
	fmt.Fprintln(env.Stderr, i18n.T("cli.config.unknown", sub))
	fmt.Fprintln(env.Stderr, i18n.T("cli.config.usage"))
	return ExitUsage
}

func configInit(env *Env, path string, lang i18n.Lang, force bool) int {
	backup, err := config.Init(path, lang, force)
	if err != nil {
		return fail(env, err)
	}
	fmt.Fprintln(env.Stdout, i18n.T("cli.config.wrote", path))
	if backup != "" {
		fmt.Fprintln(env.Stdout, i18n.T("cli.config.backup", backup))
	}
	return ExitOK
}

func configCheck(env *Env, path string) int {
	cfg, loaded, problems := config.CheckLoad(path)
	// What the file allows but leaves open, with its environment references
	// resolved as the commands that start resolve them.
	if loaded {
		for _, w := range cfg.ResolveEnv(env.Getenv).Warnings() {
			fmt.Fprintln(env.Stderr, i18n.T("cli.config.warning", w.Error()))
		}
	}
	if len(problems) == 0 {
		fmt.Fprintln(env.Stdout, i18n.T("cli.config.ok", path))
		return ExitOK
	}
	for _, p := range problems {
		fmt.Fprintln(env.Stderr, "- "+p.Error())
	}
	fmt.Fprintln(env.Stderr, i18n.T("cli.config.problems", len(problems)))
	return ExitFailed
}

// configShow prints the settings in force: the file over the defaults, with
// every secret starred out.
func configShow(env *Env, path string) int {
	if _, err := config.Migrate(path); err != nil {
		return fail(env, err)
	}
	cfg, err := config.Load(path)
	if err != nil {
		return fail(env, err)
	}
	out, err := config.Marshal(cfg.Redacted())
	if err != nil {
		return fail(env, fmt.Errorf("show config %s: %w", path, err))
	}
	fmt.Fprintf(env.Stdout, "# %s\n%s", path, out)
	return ExitOK
}

// startBare is what a bare `hermes` (or `hermes --home DIR`) starts: what
// `[agent] mode` says. The config is upgraded first, as on every start.
func startBare(ctx context.Context, env *Env, homeFlag string) int {
	home, err := resolveHome(env, homeFlag)
	if err != nil {
		return fail(env, err)
	}
	path := config.Path(home)
	if _, err := config.Migrate(path); err != nil {
		return fail(env, err)
	}
	cfg, err := config.Load(path)
	if err != nil {
		fmt.Fprintln(env.Stderr, i18n.T("cli.error", err.Error()))
		return ExitUsage
	}
	switch cfg.Agent.Mode {
	case config.ModeDesktop:
		return openDesktop(env, home)
	case config.ModeCLI:
		usage(env.Stdout)
		return ExitOK
	case config.ModeBot:
		for _, c := range commands() {
			if c.name == "bot" {
				return c.run(ctx, env, []string{"--home", home})
			}
		}
		fmt.Fprintln(env.Stderr, i18n.T("cli.config.no_bot"))
		return ExitUsage
	}
	fmt.Fprintln(env.Stderr, i18n.T("cli.error", i18n.T("config.invalid.mode", cfg.Agent.Mode)))
	return ExitUsage
}
