package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"hermes/backend/i18n"
	"hermes/backend/runner"
	"hermes/backend/store"
)

func init() { register(command{"doctor", "cli.cmd.doctor", cmdDoctor}) }

// cmdDoctor is `hermes doctor [--salvage]`: it reads every page of the
// store, changing nothing, and with --salvage copies what can be read of a
// damaged one into a new store, keeping the damaged file beside it.
func cmdDoctor(_ context.Context, env *Env, args []string) int {
	fl := newFlagSet(env, "hermes doctor")
	setUsage(fl, "cli.doctor.usage")
	home := fl.String("home", "", "cli.flag.home")
	salvage := fl.Bool("salvage", false, "cli.doctor.flag.salvage")
	rest, err := parseInterleaved(fl, args)
	if err != nil {
		return usageExit(err)
	}
	if len(rest) > 0 {
		fmt.Fprintln(env.Stderr, i18n.T("cli.doctor.usage"))
		return ExitUsage
	}
	h, err := resolveHome(env, *home)
	if err != nil {
		return fail(env, err)
	}
	path := runner.StorePath(h)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintln(env.Stdout, i18n.T("cli.doctor.no_store", path))
		return ExitOK
	}
	r, err := store.Verify(path)
	if err != nil {
		return fail(env, err)
	}
	if len(r.Damage) == 0 {
		fmt.Fprintln(env.Stdout, i18n.T("cli.doctor.healthy", path, r.Keys, r.Buckets))
		if *salvage {
			fmt.Fprintln(env.Stdout, i18n.T("cli.doctor.nothing_to_salvage"))
		}
		return ExitOK
	}
	fmt.Fprintln(env.Stdout, i18n.T("cli.doctor.damaged", path, r.Keys))
	printDamage(env, r.Damage)
	if !*salvage {
		fmt.Fprintln(env.Stdout, i18n.T("cli.doctor.how_to_salvage"))
		return ExitFailed
	}
	r, err = store.Salvage(path, time.Now())
	if err != nil {
		return fail(env, i18n.Wrap(err, "cli.doctor.err.salvage", err))
	}
	fmt.Fprintln(env.Stdout, i18n.T("cli.doctor.salvaged", r.Keys, r.Buckets, path))
	if r.Lost() {
		fmt.Fprintln(env.Stdout, i18n.T("cli.doctor.lost"))
	} else {
		fmt.Fprintln(env.Stdout, i18n.T("cli.doctor.none_lost"))
	}
	fmt.Fprintln(env.Stdout, i18n.T("cli.doctor.kept", r.Kept))
	return ExitOK
}

// printDamage lists the damage, one part a line.
func printDamage(env *Env, damage []store.Damage) {
	for _, d := range damage {
		var part string
		switch {
		case !d.Lost:
			part = i18n.T("cli.doctor.part.file")
		case d.Bucket == "":
			part = i18n.T("cli.doctor.part.top")
		case d.After == nil && d.Before == nil:
			part = i18n.T("cli.doctor.part.bucket", d.Bucket)
		case d.Before == nil:
			part = i18n.T("cli.doctor.part.after", d.Bucket, store.KeyText(d.After))
		case d.After == nil:
			part = i18n.T("cli.doctor.part.before", d.Bucket, store.KeyText(d.Before))
		default:
			part = i18n.T("cli.doctor.part.between", d.Bucket, store.KeyText(d.After), store.KeyText(d.Before))
		}
		fmt.Fprintf(env.Stdout, "  %s: %s\n", part, d.Reason)
	}
}
