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

	"hermes/backend/agent"
	"hermes/backend/config"
	"hermes/backend/event"
	"hermes/backend/i18n"
	"hermes/backend/memory"
	"hermes/backend/remote"
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

func (f *runFlags) register(env *Env, name string) *flag.FlagSet {
	fs := newFlagSet(env, name)
	fs.StringVar(&f.home, "home", "", i18n.T("cli.flag.home"))
	fs.StringVar(&f.config, "config", "", i18n.T("cli.flag.config"))
	fs.StringVar(&f.model, "model", "", i18n.T("cli.flag.model"))
	fs.StringVar(&f.baseURL, "base-url", "", i18n.T("cli.flag.base_url"))
	fs.IntVar(&f.maxIterations, "max-iterations", 0, i18n.T("cli.flag.max_iterations"))
	fs.BoolVar(&f.json, "json", false, i18n.T("cli.flag.json"))
	fs.BoolVar(&f.verbose, "verbose", false, i18n.T("cli.flag.verbose"))
	fs.BoolVar(&f.yes, "yes", false, i18n.T("cli.flag.yes"))
	fs.StringVar(&f.vault, "vault", "", i18n.T("cli.flag.vault"))
	return fs
}

func cmdRun(ctx context.Context, env *Env, args []string) int {
	var f runFlags
	fs := f.register(env, "hermes run")
	workspace := fs.String("workspace", "", i18n.T("cli.flag.workspace"))
	instructions := fs.String("instructions", "", i18n.T("cli.flag.instructions"))
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return usageExit(err)
	}
	task := strings.TrimSpace(strings.Join(rest, " "))
	if task == "" {
		fmt.Fprintln(env.Stderr, i18n.T("cli.run.no_task"))
		return ExitUsage
	}
	code, attached := inOwner(ctx, env, f, func(c *remote.Client, home string) (string, error) {
		// The same workspace as a run here would have: the flag, else
		// [agent] workspace, else the current directory.
		cfg, err := config.Load(config.Path(home))
		if err != nil {
			return "", err
		}
		ws, err := workspaceDir(*workspace, cfg.Agent.Workspace)
		if err != nil {
			return "", err
		}
		return c.Start(ctx, runner.StartRequest{
			Task: task, Instructions: *instructions, Workspace: ws,
			Model: f.model, BaseURL: f.baseURL, MaxIterations: f.maxIterations,
		})
	})
	if attached {
		return code
	}
	s, err := openSession(ctx, env, f, "")
	if err != nil {
		return failStart(env, err)
	}
	defer s.close()
	ws, err := workspaceDir(*workspace, s.cfg.Agent.Workspace)
	if err != nil {
		return failStart(env, err)
	}
	run, err := agent.NewRun(s.setup, agent.Task{Text: task, Instructions: *instructions, Workspace: ws})
	if err != nil {
		return fail(env, err)
	}
	return s.execute(ctx, env, f, run)
}

func cmdResume(ctx context.Context, env *Env, args []string) int {
	var f runFlags
	fs := f.register(env, "hermes resume")
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return usageExit(err)
	}
	if len(rest) != 1 {
		fmt.Fprintln(env.Stderr, i18n.T("cli.resume.usage"))
		return ExitUsage
	}
	code, attached := inOwner(ctx, env, f, func(c *remote.Client, home string) (string, error) {
		id, err := matchRunID(home, rest[0])
		if err != nil {
			return "", err
		}
		o := runner.Overrides{Model: f.model, BaseURL: f.baseURL, MaxIterations: f.maxIterations}
		return id, c.Resume(ctx, id, o)
	})
	if attached {
		return code
	}
	s, err := openSession(ctx, env, f, rest[0])
	if err != nil {
		return failStart(env, err)
	}
	defer s.close()
	run, err := agent.ResumeRun(s.setup, s.resumeID)
	if err != nil {
		return fail(env, err)
	}
	return s.execute(ctx, env, f, run)
}

// session is what one headless run needs open: the config, the store and
// the model client.
type session struct {
	cfg   config.Config
	store *memory.Store
	setup agent.Setup
	// resumeID is the run to resume, "" for a new run.
	resumeID string
	sessionSkills
}

// openSession opens what a run needs. resume, when given, is the id (or a
// unique prefix) of the run to resume, whose recorded model and endpoint
// stand unless the flags name others; a mistake in the config is told
// before an unknown run.
func openSession(ctx context.Context, env *Env, f runFlags, resume string) (*session, error) {
	home, err := resolveHome(env, f.home)
	if err != nil {
		return nil, err
	}
	path := f.config
	if path == "" {
		path = config.Path(home)
	}
	cfg, err := config.Load(path)
	if err != nil {
		return nil, err
	}
	if f.vault != "" {
		cfg.Obsidian.Vault = f.vault
	}
	o := runner.Overrides{Model: f.model, BaseURL: f.baseURL, MaxIterations: f.maxIterations}
	// An unknown run is told after every mistake in the config is (the
	// vault's, below), so that fixing one does not reveal another.
	var resumeID string
	var unknown error
	if resume != "" {
		resumeID, unknown = matchRunID(home, resume)
		if unknown == nil {
			if o, err = runner.ResumeOverrides(home, resumeID, cfg.Model, env.Getenv, o); err != nil {
				return nil, err
			}
		}
	}
	setup, err := runner.Build(ctx, home, cfg, env.Getenv, o)
	if err != nil {
		return nil, err
	}
	store, err := memory.Open(runner.StorePath(home))
	if err != nil {
		return nil, err
	}
	setup.Store, setup.Bus = store, event.NewBus()
	s := &session{cfg: cfg, store: store, setup: setup, resumeID: resumeID}
	if err := s.useSkills(ctx, env, home, f.yes); err != nil {
		store.Close()
		return nil, err
	}
	if unknown != nil {
		s.close()
		return nil, unknown
	}
	return s, nil
}

func (s *session) close() {
	s.closeSkills()
	s.store.Close()
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

// execute runs the loop while a viewer prints its events, and maps how the
// run ended to the exit code. The first interrupt stops the run at the next
// safe point; the second cancels it at once.
func (s *session) execute(ctx context.Context, env *Env, f runFlags, run *agent.Run) int {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sub := s.setup.Bus.Subscribe(4096, nil)
	asks := s.watchApprovals(env, run)
	printed := make(chan struct{})
	go func() {
		defer close(printed)
		s.print(env, f, sub)
	}()
	go func() {
		presses := 0
		for {
			select {
			case <-env.Interrupts:
				presses++
				if presses == 1 {
					run.Controls().Stop()
					fmt.Fprintln(env.Stderr, i18n.T("cli.run.stopping"))
					continue
				}
				cancel()
				return
			case <-ctx.Done():
				return
			}
		}
	}()
	res := run.Execute(ctx)
	s.setup.Bus.Unsubscribe(asks)
	s.setup.Bus.Unsubscribe(sub)
	<-printed
	return exitCode(res.Status)
}

func (s *session) print(env *Env, f runFlags, sub *event.Subscription) {
	show, flush := printerFor(env, f)
	for e := range sub.C {
		show(e)
	}
	flush()
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
		config.ErrInvalid, config.ErrMigrate, runner.ErrBadWorkspace, vault.ErrNoVault, path.ErrBadPattern,
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
