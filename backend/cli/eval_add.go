package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"hermes/backend/atomicfile"
	"hermes/backend/eval"
	"hermes/backend/i18n"
	"hermes/backend/runlog"
)

// cmdEvalAdd turns a run into a test case of a suite: a [[task]] with the
// run's task, a fixture of the files it read (as they were before the run)
// and proposed checks, appended to the suite (made when it is not there)
// and printed for the person to edit.
func cmdEvalAdd(env *Env, args []string) int {
	fs := newFlagSet(env, "hermes eval add")
	home := fs.String("home", "", "cli.flag.home")
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return usageExit(err)
	}
	if len(rest) != 2 {
		fmt.Fprintln(env.Stderr, i18n.T("cli.eval.add_usage"))
		return ExitUsage
	}
	suitePath, runArg := rest[0], rest[1]
	h, err := resolveHome(env, *home)
	if err != nil {
		return fail(env, err)
	}
	path, err := findRun(h, runArg)
	if err != nil {
		return fail(env, err)
	}
	events, err := runlog.ReadFile(path)
	if err != nil {
		return fail(env, err)
	}
	c, err := eval.CaseFrom(h, events)
	if err != nil {
		return fail(env, err)
	}
	var existing []byte
	if b, err := os.ReadFile(suitePath); err == nil {
		existing = b
		if _, err := eval.Parse(suitePath, string(b)+c.TOML("")); err != nil && strings.Contains(err.Error(), c.Task.ID) {
			fmt.Fprintln(env.Stderr, err)
			return ExitUsage
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return fail(env, err)
	} else {
		name := strings.TrimSuffix(filepath.Base(suitePath), filepath.Ext(suitePath))
		existing = fmt.Appendf(nil, "name = %q\n", name)
	}
	rel := ""
	if len(c.Files) > 0 {
		rel = "fixtures/" + c.Task.ID
		dir := filepath.Join(filepath.Dir(suitePath), filepath.FromSlash(rel))
		for p, text := range c.Files {
			to := filepath.Join(dir, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
				return fail(env, err)
			}
			if err := atomicfile.WriteFile(to, []byte(text), 0o644); err != nil {
				return fail(env, err)
			}
		}
	}
	block := c.TOML(rel)
	if err := atomicfile.WriteFile(suitePath, append(existing, block...), 0o644); err != nil {
		return fail(env, err)
	}
	fmt.Fprint(env.Stdout, block)
	fmt.Fprintln(env.Stderr, i18n.T("cli.eval.added", c.Task.ID, suitePath, len(c.Files)))
	return ExitOK
}
