package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"hermes/backend/config"
	"hermes/backend/event"
	"hermes/backend/host"
	"hermes/backend/i18n"
	"hermes/backend/runlog"
	"hermes/backend/runner"
	"hermes/backend/vault"
)

// runFlags are the flags `run` and `resume` share.
type runFlags struct {
	home, config, model, baseURL string
	vault                        string
	maxIterations                int
	json, verbose, yes           bool
}

func (f *runFlags) register(env *Env, name, usage string) *flag.FlagSet {
	fs := newFlagSet(env, name)
	setUsage(fs, usage)
	fs.StringVar(&f.home, "home", "", "cli.flag.home")
	fs.StringVar(&f.config, "config", "", "cli.flag.config")
	fs.StringVar(&f.model, "model", "", "cli.flag.model")
	fs.StringVar(&f.baseURL, "base-url", "", "cli.flag.base_url")
	fs.IntVar(&f.maxIterations, "max-iterations", 0, "cli.flag.max_iterations")
	fs.BoolVar(&f.json, "json", false, "cli.flag.json")
	fs.BoolVar(&f.verbose, "verbose", false, "cli.flag.verbose")
	fs.BoolVar(&f.yes, "yes", false, "cli.flag.yes")
	fs.StringVar(&f.vault, "vault", "", "cli.flag.vault")
	return fs
}

func cmdRun(ctx context.Context, env *Env, args []string) int {
	var f runFlags
	fs := f.register(env, "hermes run", "cli.run.usage")
	workspace := fs.String("workspace", "", "cli.flag.workspace")
	instructions := fs.String("instructions", "", "cli.flag.instructions")
	sandboxMode := fs.String("sandbox", "", "cli.flag.sandbox")
	memory := fs.String("memory", "", "cli.flag.memory")
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return usageExit(err)
	}
	task := strings.TrimSpace(strings.Join(rest, " "))
	if task == "" {
		fmt.Fprintln(env.Stderr, i18n.T("cli.run.no_task"))
		return ExitUsage
	}
	return runInHome(ctx, env, f, func(h *host.Host, cfg config.Config) (string, error) {
		// The flag, else [agent] workspace, else the current directory,
		// wherever the run goes on.
		ws, err := workspaceDir(*workspace, cfg.Agent.Workspace)
		if err != nil {
			return "", err
		}
		return h.Runs().Start(ctx, runner.StartRequest{
			Task: task, Instructions: *instructions, Workspace: ws,
			Model: f.model, BaseURL: f.baseURL, MaxIterations: f.maxIterations, Sandbox: *sandboxMode, Memory: *memory,
		})
	})
}

func cmdResume(ctx context.Context, env *Env, args []string) int {
	var f runFlags
	fs := f.register(env, "hermes resume", "cli.resume.usage")
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return usageExit(err)
	}
	if len(rest) != 1 {
		fmt.Fprintln(env.Stderr, i18n.T("cli.resume.usage"))
		return ExitUsage
	}
	return runInHome(ctx, env, f, func(h *host.Host, _ config.Config) (string, error) {
		id, err := matchRunID(h.Home(), rest[0])
		if err != nil {
			return "", err
		}
		// The run's recorded model and endpoint stand unless the flags
		// name others (runner.Manager.Resume).
		o := runner.Overrides{Model: f.model, BaseURL: f.baseURL, MaxIterations: f.maxIterations}
		return id, h.Runs().Resume(ctx, id, o)
	})
}

// runInHome opens the home for a run, as every process opens it (backend/
// host): when a live process owns it, the run goes on there (the window
// shows it live, hermes.db stays with the owner); else this process owns
// the home until its run is over (a window opened meanwhile attaches to
// it). Either way start starts the run through runapi.Runs, and follow
// prints it and answers it the same way. A mistake in the config is told
// before the run starts, with ExitUsage.
func runInHome(ctx context.Context, env *Env, f runFlags, start func(*host.Host, config.Config) (string, error)) int {
	home, err := resolveHome(env, f.home)
	if err != nil {
		return fail(env, err)
	}
	path := f.config
	if path == "" {
		path = config.Path(home)
	}
	adjust := func(c *config.Config) {
		if f.vault != "" {
			c.Obsidian.Vault = f.vault
		}
	}
	cwd, _ := os.Getwd()
	h, err := host.Open(ctx, home, host.Run, host.Options{
		Getenv: env.Getenv, Workspace: cwd, ConfigPath: path, Adjust: adjust,
		Warn: func(err error) { fmt.Fprintln(env.Stderr, err) },
	})
	if err != nil {
		return fail(env, err)
	}
	defer closeRunHome(ctx, env, h)
	if !h.Owns() {
		if f.config != "" || f.vault != "" {
			fmt.Fprintln(env.Stderr, i18n.T("cli.run.owner_flags", h.Owner().Mode, h.Owner().PID))
			return ExitUsage
		}
		fmt.Fprintln(env.Stderr, h.Attached())
	}
	// The owner's hermes.toml, or this process's: the workspace a run here
	// would have, and a mistake told before anything starts.
	cfg, err := config.Load(path)
	if err == nil && h.Owns() {
		adjust(&cfg)
		err = cfg.Validate()
		if err == nil {
			err = reportSkills(ctx, env, h.Manager(), cfg)
		}
	}
	if err != nil {
		return failStart(env, err)
	}
	id, err := start(h, cfg)
	if err != nil {
		return failStart(env, err)
	}
	w, err := h.Runs().Watch(id, 0)
	if err != nil {
		return fail(env, err)
	}
	return follow(ctx, env, f, h, id, w)
}

// reportSkills opens the tools this process's runs are offered (skills,
// MCP servers, the vault) and says which skills are broken, before the run
// starts.
func reportSkills(ctx context.Context, env *Env, m *runner.Manager, cfg config.Config) error {
	kit, err := m.Toolkit(ctx, cfg)
	if err != nil || kit == nil {
		return err
	}
	for _, p := range kit.Catalog.Problems() {
		fmt.Fprintln(env.Stderr, i18n.T("cli.skills.problem", p.Error()))
	}
	return nil
}

// closeRunHome lets go of the home once the run is over. Runs that other
// processes started in this one (a window attached to it) go on until they
// end, or until Ctrl-C or the end of ctx (SIGTERM) stops them at their next
// safe point.
func closeRunHome(ctx context.Context, env *Env, h *host.Host) {
	if m := h.Manager(); m != nil {
		waitForOthers(ctx, env, m)
	}
	_ = closeHost(env, h)
}

// waitForOthers waits until m runs nothing, Ctrl-C is pressed or ctx ends.
func waitForOthers(ctx context.Context, env *Env, m *runner.Manager) {
	feed := m.Feed()
	defer feed.Close()
	told := false
	for {
		n := len(m.Live())
		if n == 0 {
			return
		}
		if !told {
			fmt.Fprintln(env.Stderr, i18n.T("cli.run.others_live", n))
			told = true
		}
		select {
		case <-feed.Ready():
			feed.Take()
		case <-env.Interrupts:
			return
		case <-ctx.Done():
			return
		}
	}
}

// matchRunID resolves a run id, or a unique prefix of one, to the full id.
func matchRunID(home, id string) (string, error) {
	path, err := findRun(home, id)
	if err != nil {
		return "", err
	}
	return runlog.IDFromPath(path), nil
}

func workspaceDir(flagValue, configured string) (string, error) {
	dir := flagValue
	if dir == "" {
		dir = configured
	}
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	info, err := os.Stat(abs)
	if err != nil || !info.IsDir() {
		return "", i18n.Wrap(runner.ErrBadWorkspace, "cli.run.bad_workspace", abs)
	}
	return abs, nil
}

// printerFor is how a run's events are shown: JSON lines (the same bytes
// as the run log) with --json, else the live view, which flush ends.
func printerFor(env *Env, f runFlags) (show func(event.Event), flush func()) {
	if f.json {
		j := NewJSONPrinter(env.Stdout)
		return func(e event.Event) { _ = j.Write(e) }, func() {}
	}
	p := NewPrinter(env.Stdout, PrinterOptions{
		Color: ColorFor(env.Stdout, env.Getenv), Width: terminalWidth(env.Stdout), Verbose: f.verbose,
	})
	return p.Print, p.Flush
}

// failStart prints why a run was not started and returns its exit code:
// ExitUsage for a mistake in the config (or the flags that override it),
// which scripts tell from a failed run by the code, ExitFailed otherwise.
func failStart(env *Env, err error) int {
	fail(env, err)
	for _, mistake := range []error{
		config.ErrSyntax, config.ErrUnknownKey, config.ErrWrongType, config.ErrEscapedPath,
		config.ErrInvalid, config.ErrMigrate, runner.ErrBadWorkspace, runner.ErrInvalidSandbox, runner.ErrInvalidMemory,
		vault.ErrNoVault, path.ErrBadPattern,
	} {
		if errors.Is(err, mistake) {
			return ExitUsage
		}
	}
	return ExitFailed
}

func exitCode(status string) int {
	switch status {
	case event.StatusFinished:
		return ExitOK
	case event.StatusMaxIterations:
		return ExitMaxIterations
	case event.StatusGuard:
		return ExitGuard
	case event.StatusBudget:
		return ExitBudget
	case event.StatusStopped:
		return ExitStopped
	default:
		return ExitFailed
	}
}
