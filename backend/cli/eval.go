package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"hermes/backend/config"
	"hermes/backend/eval"
	"hermes/backend/homelock"
	"hermes/backend/host"
	"hermes/backend/i18n"
	"hermes/backend/llm"
	"hermes/backend/store"
)

func init() { register(command{"eval", "cli.cmd.eval", cmdEval}) }

// cmdEval runs a suite (`eval run`), lists and shows evals, and turns a run
// into a test case (`eval add`).
func cmdEval(ctx context.Context, env *Env, args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(env.Stderr, i18n.T("cli.eval.usage"))
		return ExitUsage
	}
	switch args[0] {
	case "run":
		return cmdEvalRun(ctx, env, args[1:])
	case "list":
		return cmdEvalList(env, args[1:])
	case "show":
		return cmdEvalShow(env, args[1:])
	case "add":
		return cmdEvalAdd(env, args[1:])
	case "-h", "--help", "help":
		fmt.Fprintln(env.Stdout, i18n.T("cli.eval.usage"))
		return ExitOK
	}
	fmt.Fprintln(env.Stderr, i18n.T("cli.eval.unknown", args[0]))
	fmt.Fprintln(env.Stderr, i18n.T("cli.eval.usage"))
	return ExitUsage
}

// stringsFlag is a flag given any number of times.
type stringsFlag []string

func (s *stringsFlag) String() string     { return strings.Join(*s, ",") }
func (s *stringsFlag) Set(v string) error { *s = append(*s, v); return nil }

type evalRunFlags struct {
	home, config, baseURL, baseline, junit, resume string
	models                                         stringsFlag
	repeat, parallel                               int
	json, cluster                                  bool
}

func cmdEvalRun(ctx context.Context, env *Env, args []string) int {
	var f evalRunFlags
	fs := newFlagSet(env, "hermes eval run")
	setUsage(fs, "cli.eval.usage")
	fs.StringVar(&f.home, "home", "", "cli.flag.home")
	fs.StringVar(&f.config, "config", "", "cli.flag.config")
	fs.Var(&f.models, "model", "cli.eval.flag.model")
	fs.StringVar(&f.baseURL, "base-url", "", "cli.flag.base_url")
	fs.IntVar(&f.repeat, "repeat", 1, "cli.eval.flag.repeat")
	fs.IntVar(&f.parallel, "parallel", 4, "cli.eval.flag.parallel")
	fs.StringVar(&f.baseline, "baseline", "", "cli.eval.flag.baseline")
	fs.StringVar(&f.junit, "junit", "", "cli.eval.flag.junit")
	fs.StringVar(&f.resume, "resume", "", "cli.eval.flag.resume")
	fs.BoolVar(&f.json, "json", false, "cli.eval.flag.json")
	fs.BoolVar(&f.cluster, "cluster", false, "cli.eval.flag.cluster")
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return usageExit(err)
	}
	switch {
	case f.repeat < 1 || f.repeat > 1000:
		fmt.Fprintln(env.Stderr, i18n.T("cli.eval.bad_repeat", f.repeat))
		return ExitUsage
	case f.parallel < 1 || f.parallel > 256:
		fmt.Fprintln(env.Stderr, i18n.T("cli.eval.bad_parallel", f.parallel))
		return ExitUsage
	case f.resume == "" && len(rest) != 1:
		fmt.Fprintln(env.Stderr, i18n.T("cli.eval.need_suite"))
		return ExitUsage
	case f.resume != "" && len(rest) > 1:
		fmt.Fprintln(env.Stderr, i18n.T("cli.eval.need_suite"))
		return ExitUsage
	}
	home, err := resolveHome(env, f.home)
	if err != nil {
		return fail(env, err)
	}
	cfgPath := f.config
	if cfgPath == "" {
		cfgPath = config.Path(home)
	}
	cfg, err := config.Load(cfgPath)
	if err == nil {
		err = cfg.Validate()
	}
	if err != nil {
		return failStart(env, err)
	}
	// The eval keeps its results in hermes.db as its runs end, so it owns
	// the home for as long as it runs; a window opened meanwhile attaches
	// and shows its runs live.
	cwd, _ := os.Getwd()
	h, err := host.Open(ctx, home, host.Run, host.Options{
		MustOwn: true, HoldStore: true, Getenv: env.Getenv, Workspace: cwd, ConfigPath: cfgPath,
		Warn: func(err error) { fmt.Fprintln(env.Stderr, err) },
	})
	var owned *homelock.OwnedError
	if errors.As(err, &owned) {
		return fail(env, i18n.Wrap(err, "cli.eval.home_owned", owned.Owner.Mode, owned.Owner.PID))
	}
	if err != nil {
		return fail(env, err)
	}
	defer func() { _ = closeHost(env, h) }() // it says on stderr what it stops
	st := h.Store()

	ev, suite, code := prepareEval(env, st, f, rest)
	if ev == nil {
		return code
	}
	var base *eval.Eval
	if ev.Baseline != "" {
		if base, err = eval.LoadEval(st, ev.Baseline); err != nil {
			fmt.Fprintln(env.Stderr, i18n.T("cli.error", err.Error()))
			return ExitUsage
		}
		ev.Baseline = base.ID
	}
	if err := eval.SaveEval(st, ev); err != nil {
		return fail(env, err)
	}
	fmt.Fprintln(env.Stderr, i18n.T("cli.eval.started", ev.ID, ev.Suite, len(ev.Tasks), len(ev.Variants), ev.Repeat, eval.Missing(suite, ev)))

	stop := make(chan struct{})
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	finished := make(chan struct{})
	go func() {
		presses := 0
		for {
			select {
			case <-env.Interrupts:
				presses++
				if presses == 1 {
					close(stop)
				} else {
					cancel()
				}
			case <-finished:
				return
			}
		}
	}()
	engine := &eval.Engine{
		Runs: h.Runs(), Start: eval.ManagerStart(h.Manager(), home, cfg, env.Getenv), Store: st,
		Judge: func(v eval.Variant) eval.Judge {
			return eval.ModelJudge(cfg, env.Getenv, cfg.Eval.JudgeModel, v)
		},
		Dir: filepath.Join(home, "evals"), Parallel: f.parallel,
		Progress: progressPrinter(env),
		Stopping: func(int) { fmt.Fprintln(env.Stderr, i18n.T("cli.eval.stopping")) },
		RateLimited: func(task, variant string, wait time.Duration, parallel int) {
			fmt.Fprintln(env.Stderr, i18n.T("cli.eval.rate_limited", task, variant, wait, parallel))
		},
	}
	if f.cluster {
		err = runOnCluster(runCtx, env, cfg, stop, st, suite, ev)
	} else {
		err = engine.Run(runCtx, stop, suite, ev)
	}
	close(finished)
	if err != nil {
		return fail(env, err)
	}
	return reportEval(env, ev, base, f)
}

// prepareEval makes the eval to run: a new one of the suite named in rest,
// or the one --resume names, with its suite read again. A nil eval comes
// with the exit code.
func prepareEval(env *Env, st *store.Store, f evalRunFlags, rest []string) (*eval.Eval, *eval.Suite, int) {
	if f.resume != "" {
		ev, err := eval.LoadEval(st, f.resume)
		if err != nil {
			fmt.Fprintln(env.Stderr, i18n.T("cli.error", err.Error()))
			return nil, nil, ExitUsage
		}
		path := ev.SuitePath
		if len(rest) == 1 {
			path = rest[0]
		}
		suite, err := eval.Load(path)
		if err != nil {
			fmt.Fprintln(env.Stderr, err)
			return nil, nil, ExitUsage
		}
		if f.baseline != "" {
			ev.Baseline = f.baseline
		}
		// A base URL that held a secret was kept masked: the one given
		// again takes its place.
		for i, v := range ev.Variants {
			if !v.HidesSecret() {
				continue
			}
			if f.baseURL == "" || llm.RedactURL(f.baseURL) != v.BaseURL {
				fmt.Fprintln(env.Stderr, i18n.T("cli.eval.resume_base_url", v.Label(), v.BaseURL))
				return nil, nil, ExitUsage
			}
			ev.Variants[i].BaseURL = f.baseURL
		}
		ev.State = eval.StateRunning
		return ev, suite, ExitOK
	}
	suite, err := eval.Load(rest[0])
	if err != nil {
		fmt.Fprintln(env.Stderr, err)
		return nil, nil, ExitUsage
	}
	ev := &eval.Eval{
		ID: eval.NewID(time.Now()), Suite: suite.Name, SuitePath: suite.Path,
		Repeat: f.repeat, Baseline: f.baseline, State: eval.StateRunning, Started: time.Now().UTC(),
	}
	if ev.Suite == "" {
		ev.Suite = strings.TrimSuffix(filepath.Base(suite.Path), filepath.Ext(suite.Path))
	}
	for _, t := range suite.Tasks {
		ev.Tasks = append(ev.Tasks, t.ID)
	}
	switch {
	case len(f.models) > 0:
		for _, m := range f.models {
			ev.Variants = append(ev.Variants, eval.Variant{Model: m, BaseURL: f.baseURL})
		}
	case len(suite.Variants) > 0:
		for _, v := range suite.Variants {
			if v.BaseURL == "" {
				v.BaseURL = f.baseURL
			}
			ev.Variants = append(ev.Variants, v)
		}
	default:
		ev.Variants = []eval.Variant{{BaseURL: f.baseURL}}
	}
	return ev, suite, ExitOK
}

// progressPrinter says on stderr as each run starts and is checked.
func progressPrinter(env *Env) func(eval.Progress) {
	var mu sync.Mutex
	return func(p eval.Progress) {
		mu.Lock()
		defer mu.Unlock()
		if p.Result == nil {
			fmt.Fprintln(env.Stderr, i18n.T("cli.eval.run_started", p.Task, p.Variant, p.Rep+1, p.RunID))
			return
		}
		r := p.Result
		mark := i18n.T("cli.eval.pass")
		detail := ""
		switch {
		case r.Ungraded:
			// Said whole: what to do next ends it.
			mark, detail = i18n.T("cli.eval.ungraded"), r.ErrorText(i18n.Current())
		case r.Error != "":
			mark, detail = i18n.T("cli.eval.error"), r.ErrorText(i18n.Current())
		case !r.Pass:
			mark = i18n.T("cli.eval.fail")
			for _, c := range r.Checks {
				if !c.Pass {
					detail = c.Kind + ": " + c.Detail
					break
				}
			}
		}
		line := fmt.Sprintf("[%d/%d] %-5s %s · %s #%d  %s", p.Done, p.Total, mark, r.Task, r.Variant, r.Rep+1, durationText(r.DurationMS))
		switch {
		case r.Ungraded:
			line += "  " + strings.ReplaceAll(detail, "\n", " ")
		case detail != "":
			line += "  " + firstLine(detail, 160)
		}
		fmt.Fprintln(env.Stderr, line)
	}
}

func firstLine(s string, n int) string {
	s, _, _ = strings.Cut(s, "\n")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

func durationText(ms int64) string {
	return (time.Duration(ms) * time.Millisecond).Round(10 * time.Millisecond).String()
}

// reportEval prints the table (or the eval as JSON), writes the JUnit
// report, and returns the exit code: ExitStopped when runs are missing
// (resume them), else ExitFailed when a run failed or could not be checked
// (with a baseline: when a task passes a smaller share of its runs than
// there, or a run could not be checked), else ExitOK.
func reportEval(env *Env, ev *eval.Eval, base *eval.Eval, f evalRunFlags) int {
	cells := eval.Cells(ev)
	regressed := false
	if base != nil {
		regressed = eval.Compare(cells, eval.Cells(base))
	}
	if f.junit != "" {
		if err := writeJUnitFile(f.junit, ev); err != nil {
			return fail(env, err)
		}
	}
	if f.json {
		writeJSON(env, evalView{Eval: ev.Redacted(), Cells: cells})
	} else {
		printEvalTable(env, ev, cells)
	}
	failed, errored := false, false
	for _, c := range cells {
		failed = failed || c.Passed < c.Runs
		errored = errored || c.Errors > 0 || c.Ungraded > 0
	}
	switch {
	case ev.State == eval.StateStopped:
		fmt.Fprintln(env.Stderr, i18n.T("cli.eval.resume_hint", ev.ID))
		return ExitStopped
	case base != nil && (regressed || errored):
		return ExitFailed
	case base != nil:
		return ExitOK
	case failed || errored:
		return ExitFailed
	}
	return ExitOK
}

// runOnCluster puts the eval's missing runs on the queue of [cluster]
// nats_url and waits for `hermes worker` replicas to give their results.
func runOnCluster(ctx context.Context, env *Env, cfg config.Config, stop <-chan struct{}, st *store.Store, suite *eval.Suite, ev *eval.Eval) error {
	cfg = cfg.ResolveEnv(env.Getenv)
	if !cfg.Cluster.Enabled() {
		return i18n.Wrap(eval.ErrQueue, "cli.worker.no_cluster")
	}
	machine, _ := os.Hostname()
	q, err := eval.OpenQueue(ctx, cfg.Cluster, fmt.Sprintf("hermes-eval %s/%d", machine, os.Getpid()))
	if err != nil {
		return err
	}
	defer q.Close()
	fmt.Fprintln(env.Stderr, i18n.T("cli.eval.cluster_waiting", eval.Missing(suite, ev)))
	return q.RunOn(ctx, stop, st, suite, ev, progressPrinter(env))
}

func writeJUnitFile(path string, ev *eval.Eval) error {
	f, err := os.Create(path)
	if err != nil {
		return i18n.Wrap(err, "cli.eval.junit_failed", path, err)
	}
	if err := eval.WriteJUnit(f, ev); err != nil {
		_ = f.Close()
		return i18n.Wrap(err, "cli.eval.junit_failed", path, err)
	}
	return f.Close()
}

// evalView is an eval as --json prints it: its results and its table.
type evalView struct {
	*eval.Eval
	Cells []eval.Cell `json:"cells"`
}
