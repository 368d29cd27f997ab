package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"hermes/backend/config"
	"hermes/backend/eval"
	"hermes/backend/homelock"
	"hermes/backend/host"
	"hermes/backend/i18n"
)

func init() { register(command{"worker", "cli.cmd.worker", cmdWorker}) }

// cmdWorker runs eval runs that `hermes eval run --cluster` puts on the
// queue of [cluster] nats_url, in this home, until Ctrl-C: the first stops
// taking runs and stops the live ones at their next safe point (they go
// back on the queue for another worker), the second cancels them.
func cmdWorker(ctx context.Context, env *Env, args []string) int {
	fs := newFlagSet(env, "hermes worker")
	setUsage(fs, "cli.worker.usage")
	home := fs.String("home", "", "cli.flag.home")
	cfgPath := fs.String("config", "", "cli.flag.config")
	parallel := fs.Int("parallel", 2, "cli.worker.flag.parallel")
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return usageExit(err)
	}
	if len(rest) > 0 || *parallel < 1 || *parallel > 256 {
		fmt.Fprintln(env.Stderr, i18n.T("cli.worker.usage"))
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
	if err == nil {
		err = cfg.Validate()
	}
	if err != nil {
		return failStart(env, err)
	}
	cfg = cfg.ResolveEnv(env.Getenv)
	if !cfg.Cluster.Enabled() {
		fmt.Fprintln(env.Stderr, i18n.T("cli.worker.no_cluster"))
		return ExitUsage
	}
	cwd, _ := os.Getwd()
	h, err := host.Open(ctx, dir, host.Run, host.Options{
		MustOwn: true, HoldStore: true, Getenv: env.Getenv, Workspace: cwd, ConfigPath: *cfgPath,
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
	machine, _ := os.Hostname()
	q, err := eval.OpenQueue(ctx, cfg.Cluster, fmt.Sprintf("hermes-worker %s/%d", machine, os.Getpid()))
	if err != nil {
		return fail(env, err)
	}
	defer q.Close()

	runCtx, cancelRuns := context.WithCancel(ctx)
	defer cancelRuns()
	takeCtx, stopTaking := context.WithCancel(runCtx)
	defer stopTaking()
	stop := make(chan struct{})
	go func() {
		presses := 0
		for {
			select {
			case <-env.Interrupts:
				presses++
				if presses == 1 {
					fmt.Fprintln(env.Stderr, i18n.T("cli.worker.stopping"))
					stopTaking()
					close(stop)
				} else {
					cancelRuns()
				}
			case <-runCtx.Done():
				return
			}
		}
	}()
	engine := &eval.Engine{
		Runs: h.Runs(), Start: eval.ManagerStart(h.Manager(), dir, cfg, env.Getenv), Store: h.Store(),
		Judge: func(v eval.Variant) eval.Judge { return eval.ModelJudge(cfg, env.Getenv, cfg.Eval.JudgeModel, v) },
		Dir:   filepath.Join(dir, "evals"), Parallel: 1,
	}
	var mu sync.Mutex
	fmt.Fprintln(env.Stderr, i18n.T("cli.worker.ready", dir, *parallel))
	err = q.Work(takeCtx, *parallel, func(j eval.Job) (*eval.Result, error) {
		s, err := j.Unpack(filepath.Join(dir, "evals"))
		if err != nil {
			fmt.Fprintln(env.Stderr, i18n.T("cli.error", err.Error()))
			return nil, err
		}
		r, again, err := engine.RunJob(runCtx, stop, s, j.Eval, j.Task, j.Variant, j.Rep)
		if err != nil {
			fmt.Fprintln(env.Stderr, i18n.T("cli.error", err.Error()))
			return nil, err
		}
		if again || r == nil {
			return nil, nil
		}
		mu.Lock()
		defer mu.Unlock()
		mark := i18n.T("cli.eval.pass")
		switch {
		case r.Error != "":
			mark = i18n.T("cli.eval.error")
		case !r.Pass:
			mark = i18n.T("cli.eval.fail")
		}
		fmt.Fprintf(env.Stderr, "%-5s %s · %s · %s #%d  run %s\n", mark, j.Eval, r.Task, r.Variant, r.Rep+1, r.RunID)
		return r, nil
	})
	if err != nil {
		return fail(env, err)
	}
	return ExitOK
}
