// Command tinyhermes is a small Hermes built from the real updater code for
// the update tests, which link old and new versions of it with -ldflags
// (its version, its health, its migration, and the trusted key) and serve
// them from a feed on loopback. It answers the same `version` and
// `update --health --home DIR` contract as hermes.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"hermes/backend/update"
)

// Set with -ldflags -X.
var (
	version = "dev"
	// "no": the health check fails after the migration ran; "crash": every
	// command but version crashes; "hang": the health check never answers;
	// "staged": the health check passes only while the binary is the staged
	// copy, so it passes on the copy of the home and fails once installed.
	healthy   = "yes"
	migration = "ok" // "fail": the migration fails half-way; "crash": it dies half-way
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: tinyhermes version | update [--home DIR] [--feed URL] [--health|--rollback|--clean|--check]")
		os.Exit(2)
	}
	if os.Args[1] != "version" {
		killDuringHealthCheck()
		if healthy == "crash" {
			fmt.Fprintln(os.Stderr, "panic: this build is broken")
			os.Exit(2)
		}
	}
	switch os.Args[1] {
	case "version":
		fmt.Println("hermes", version)
	case "update":
		if err := cmdUpdate(context.Background(), os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, "error:", err)
			os.Exit(1)
		}
	default:
		fmt.Fprintln(os.Stderr, "unknown command", os.Args[1])
		os.Exit(2)
	}
}

// killDuringHealthCheck stands for a kill of the updating process while
// this binary answers its health check: TINYHERMES_KILL_DURING is "staged"
// for the check of the staged copy, "installed" for the check once it has
// the old binary's name, "any" for the first. The check dies with its
// updater.
func killDuringHealthCheck() {
	when := os.Getenv("TINYHERMES_KILL_DURING")
	if when == "" || !slices.Contains(os.Args, "--health") || when != "any" && (when == "staged") != isStaged() {
		return
	}
	if p, err := os.FindProcess(os.Getppid()); err == nil {
		_ = p.Kill()
	}
	killSelf()
}

// isStaged says whether this binary runs as the updater's staged copy,
// which is hidden beside the installed one (.hermes.new), or inside the
// staged bundle (.Hermes.app.new/Contents/MacOS/hermes).
func isStaged() bool {
	exe, err := os.Executable()
	if err != nil {
		return false
	}
	for range 4 {
		if strings.HasPrefix(filepath.Base(exe), ".") {
			return true
		}
		exe = filepath.Dir(exe)
	}
	return false
}

func init() {
	// data.txt stands for the config and the store: the health check of a
	// new version reads it, on a copy of the home first.
	update.RegisterCheckFile(update.CheckFile{Name: "data.txt"})
	// The migration appends to HOME/data.txt, standing in for the config and
	// the store, so the tests can see it applied and rolled back.
	update.RegisterMigration(update.Migration{
		Name:  "data",
		Files: func(home string) []string { return []string{filepath.Join(home, "data.txt")} },
		Run: func(_ context.Context, home string) error {
			f, err := os.OpenFile(filepath.Join(home, "data.txt"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(f, "migrated to %s\n", version)
			if cErr := f.Close(); err == nil {
				err = cErr
			}
			switch migration {
			case "fail":
				return errors.New("the migration failed half-way")
			case "crash":
				killSelf()
			}
			return err
		},
	})
}

func cmdUpdate(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("update", flag.ContinueOnError)
	home := fs.String("home", "", "home directory")
	feed := fs.String("feed", "", "feed URL")
	health := fs.Bool("health", false, "answer the health check")
	rollback := fs.Bool("rollback", false, "roll back")
	clean := fs.Bool("clean", false, "empty the cache")
	check := fs.Bool("check", false, "only check")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *health {
		return update.Health(ctx, os.Stdout, *home, version, func(ctx context.Context) error {
			switch {
			case healthy == "hang":
				<-ctx.Done() // never cancelled: the updater's timeout ends it
			case healthy == "no", healthy == "staged" && !isStaged():
				return errors.New("this build is broken")
			}
			return nil
		})
	}
	u, err := update.New(update.Options{
		Home: *home, FeedURL: *feed, Version: version,
		HealthTimeout: 20 * time.Second,
		RetryDelay:    func(int) time.Duration { return 0 },
		OnStep: func(s update.Step) {
			if string(s) == os.Getenv("TINYHERMES_KILL_AT") {
				killSelf()
			}
		},
	})
	if err != nil {
		return err
	}
	if err := u.Recover(ctx); err != nil {
		return err
	}
	switch {
	case *rollback:
		v, err := u.Rollback(ctx)
		if err == nil {
			fmt.Println("rolled back to", v)
		}
		return err
	case *clean:
		n, err := u.Clean()
		if err == nil {
			fmt.Println("freed", n)
		}
		return err
	}
	rel, newer, err := u.Check(ctx)
	if err != nil || !newer {
		if err == nil {
			fmt.Println("up to date:", u.Installed())
		}
		return err
	}
	if *check {
		fmt.Println("available:", rel.Version, strings.TrimSpace(rel.Notes))
		return nil
	}
	path, err := u.Download(ctx, rel, nil)
	if err != nil {
		return err
	}
	if err := u.Apply(ctx, rel, path); err != nil {
		return err
	}
	fmt.Println("updated to", rel.Version)
	return nil
}

// killSelf dies at once, as a power cut or a kill -9 would stop it.
func killSelf() {
	p, _ := os.FindProcess(os.Getpid())
	_ = p.Kill()
	time.Sleep(time.Minute) // the signal lands before this returns
}
