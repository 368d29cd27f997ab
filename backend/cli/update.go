package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"hermes/backend/config"
	"hermes/backend/host"
	"hermes/backend/i18n"
	"hermes/backend/runner"
	"hermes/backend/store"
	selfupdate "hermes/backend/update"
)

func init() {
	register(command{"update", "cli.cmd.update", cmdUpdate})
	// What the health check reads: a new version passes its check on a copy
	// of these before it is installed.
	selfupdate.RegisterCheckFile(selfupdate.CheckFile{Name: filepath.Base(config.Path(""))})
	selfupdate.RegisterCheckFile(selfupdate.CheckFile{Name: filepath.Base(runner.StorePath("")), Copy: snapshotStore})
}

// snapshotStore copies the store for a health check in one read
// transaction. A store another Hermes holds is left out: the check then
// opens an empty one.
func snapshotStore(src, dst string) error {
	if err := store.Snapshot(src, dst); !errors.Is(err, store.ErrLocked) {
		return err
	}
	return nil
}

// checkStore opens home's store as every command does. One that another
// Hermes holds opens for that process, and passes.
func checkStore(home string) error {
	s, err := host.OpenStore(home, 0)
	if errors.Is(err, store.ErrLocked) {
		return nil
	}
	if err != nil {
		return err
	}
	return s.Close()
}

// cmdUpdate is `hermes update [--check|--rollback|--clean]`, and the health
// check a new binary answers for the updater (--health).
func cmdUpdate(ctx context.Context, env *Env, args []string) int {
	fs := newFlagSet(env, "hermes update")
	setUsage(fs, "cli.update.usage")
	home := fs.String("home", "", "cli.flag.home")
	file := fs.String("config", "", "cli.update.flag.config")
	check := fs.Bool("check", false, "cli.update.flag.check")
	rollback := fs.Bool("rollback", false, "cli.update.flag.rollback")
	clean := fs.Bool("clean", false, "cli.update.flag.clean")
	health := fs.Bool("health", false, "cli.update.flag.health")
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return usageExit(err)
	}
	if len(rest) > 0 || countTrue(*check, *rollback, *clean, *health) > 1 {
		fmt.Fprintln(env.Stderr, i18n.T("cli.update.usage"))
		return ExitUsage
	}
	dir, err := resolveHome(env, *home)
	if err != nil {
		return fail(env, err)
	}
	path := *file
	if path == "" {
		path = config.Path(dir)
	}
	if *health {
		// One JSON line on stdout is the answer the updater reads.
		err := selfupdate.Health(ctx, env.Stdout, dir, env.Version, func(context.Context) error {
			cfg, err := config.Load(path)
			if err == nil {
				err = cfg.Validate()
			}
			if err != nil {
				return err
			}
			return checkStore(dir)
		})
		if err != nil {
			return ExitFailed
		}
		return ExitOK
	}
	cfg, err := config.Load(path)
	if err == nil {
		err = cfg.Validate()
	}
	if err != nil {
		return fail(env, err)
	}
	u, err := selfupdate.New(selfupdate.Options{
		Home: dir, FeedURL: cfg.Update.FeedURL, PublicKey: cfg.Update.PublicKey,
		Channel: cfg.Update.Channel, Version: env.Version,
		Exe: updateInstall.exe, Root: updateInstall.root,
	})
	if err != nil {
		return fail(env, updateError(err, cfg.Update.FeedURL))
	}
	if err := u.Recover(ctx); err != nil {
		return fail(env, updateError(err, cfg.Update.FeedURL))
	}
	switch {
	case *rollback:
		v, err := u.Rollback(ctx)
		if err != nil {
			return fail(env, updateError(err, cfg.Update.FeedURL))
		}
		fmt.Fprintln(env.Stdout, i18n.T("cli.update.rolled_back", v, u.Path()))
		return ExitOK
	case *clean:
		freed, err := u.Clean()
		if err != nil {
			return fail(env, updateError(err, cfg.Update.FeedURL))
		}
		fmt.Fprintln(env.Stdout, i18n.T("cli.update.cleaned", megabytes(freed)))
		return ExitOK
	}
	rel, newer, err := u.Check(ctx)
	if err != nil {
		return fail(env, updateError(err, cfg.Update.FeedURL))
	}
	if !newer {
		fmt.Fprintln(env.Stdout, i18n.T("cli.update.up_to_date", u.Installed()))
		return ExitOK
	}
	fmt.Fprintln(env.Stdout, i18n.T("cli.update.available", rel.Version, u.Installed()))
	if notes := strings.TrimSpace(rel.NotesIn(i18n.Current() == i18n.ZH)); notes != "" {
		fmt.Fprintln(env.Stdout, notes)
	}
	if *check {
		return ExitOK
	}
	bar := newProgressBar(env)
	path, err = u.Download(ctx, rel, bar.update)
	bar.done()
	if err != nil {
		return fail(env, updateError(err, cfg.Update.FeedURL))
	}
	if u.Form() == selfupdate.FormPackage {
		// dpkg owns the binary: the verified package is the update.
		apt, dpkg := selfupdate.PackageCommands(path)
		fmt.Fprintln(env.Stdout, i18n.T("cli.update.package", u.Exe(), path, apt, dpkg))
		return ExitOK
	}
	fmt.Fprintln(env.Stdout, i18n.T("cli.update.applying", rel.Version))
	if err := u.Apply(ctx, rel, path); err != nil {
		return fail(env, updateError(err, cfg.Update.FeedURL))
	}
	fmt.Fprintln(env.Stdout, i18n.T("cli.update.updated", rel.Version, u.Path()))
	return ExitOK
}

// updateInstall is where hermes update finds its install when set: the
// binary and the root of the file system its dpkg database is under. Tests
// point it at a fake root; "" is the running binary and "/".
var updateInstall struct{ exe, root string }

func countTrue(bs ...bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

func megabytes(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/(1<<20)) }

// updateError turns an updater failure into what the person should do.
func updateError(err error, feedURL string) error {
	if errors.Is(err, store.ErrDamaged) {
		return err // it says to run hermes doctor
	}
	keys := []struct {
		is  error
		key string
	}{
		{selfupdate.ErrNoFeed, "cli.update.err.no_feed"},
		{selfupdate.ErrVersion, "cli.update.err.dev_build"},
		{selfupdate.ErrFeedSignature, "cli.update.err.feed_signature"},
		{selfupdate.ErrFeed, "cli.update.err.feed"},
		{selfupdate.ErrPublicKey, "cli.update.err.public_key"},
		{selfupdate.ErrNoPlatform, "cli.update.err.no_platform"},
		{selfupdate.ErrSize, "cli.update.err.refused"},
		{selfupdate.ErrChecksum, "cli.update.err.refused"},
		{selfupdate.ErrSignature, "cli.update.err.refused"},
		{selfupdate.ErrDownload, "cli.update.err.download"},
		{selfupdate.ErrHealth, "cli.update.err.health"},
		{selfupdate.ErrNoPrevious, "cli.update.err.no_previous"},
		{selfupdate.ErrBusy, "cli.update.err.busy"},
		{selfupdate.ErrManaged, "cli.update.err.managed"},
	}
	for _, k := range keys {
		if errors.Is(err, k.is) {
			switch k.is {
			case selfupdate.ErrNoFeed:
				return i18n.Wrap(err, k.key) // the message is the whole story
			case selfupdate.ErrNoPrevious:
				if err == selfupdate.ErrNoPrevious { // nothing kept, nothing more to say
					return i18n.Wrap(err, "cli.update.err.none_kept")
				}
			case selfupdate.ErrFeedSignature, selfupdate.ErrFeed:
				return i18n.Wrap(err, k.key, feedURL, err)
			}
			return i18n.Wrap(err, k.key, err)
		}
	}
	return i18n.Wrap(err, "cli.update.err.other", err)
}

// progressBar draws the download on a terminal, redrawing once per percent;
// in a pipe it prints one line when the download starts.
type progressBar struct {
	w        io.Writer
	terminal bool
	last     int64
	started  bool
}

func newProgressBar(env *Env) *progressBar {
	return &progressBar{w: env.Stderr, terminal: terminalWidth(env.Stderr) > 0, last: -1}
}

func (b *progressBar) update(p selfupdate.Progress) {
	if !b.started {
		b.started = true
		if !b.terminal {
			fmt.Fprintln(b.w, i18n.T("cli.update.downloading", p.Version, megabytes(p.Total)))
			return
		}
	}
	if !b.terminal || p.Total <= 0 {
		return
	}
	percent := p.Done * 100 / p.Total
	if percent == b.last {
		return
	}
	b.last = percent
	const width = 30
	filled := int(percent * width / 100)
	fmt.Fprintf(b.w, "\r[%s%s] %3d%%  %s / %s", strings.Repeat("=", filled), strings.Repeat(" ", width-filled),
		percent, megabytes(p.Done), megabytes(p.Total))
}

func (b *progressBar) done() {
	if b.terminal && b.started {
		fmt.Fprintln(b.w)
	}
}
