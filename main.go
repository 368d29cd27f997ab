// Hermes is a desktop workbench for AI agents. With no arguments it opens
// the desktop window; subcommands run the same engine headless.
package main

import (
	"os"

	"hermes/backend/cli"
	"hermes/backend/desktoplink"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	args, run := linked(os.Args[1:])
	if len(args) > 0 && run == "" {
		attachConsole()
	}
	// Interrupts go to the command, which stops a run at a safe point on the
	// first and cancels it on the second; SIGTERM cancels at once. A process
	// too busy to take them still ends (cli.Signals).
	ctx, interrupts, stop := cli.Signals(os.Stderr, cli.HardStop)
	code := cli.Main(ctx, &cli.Env{
		Stdout:     os.Stdout,
		Stderr:     os.Stderr,
		Getenv:     os.Getenv,
		Assets:     uiAssets(),
		Desktop:    desktopEntry(run),
		Interrupts: interrupts,
		Version:    version,
	}, args)
	stop()
	os.Exit(code)
}

// linked reads a link to a run (a toast clicked on Windows, which the
// system starts hermes.exe with) as the window of its home opened on that
// run: the arguments that open it, and the run. Any page may hold such a
// link: one to a home that is not there opens nothing, and other
// arguments are left as they are, with no run.
func linked(args []string) ([]string, string) {
	if len(args) == 1 {
		if home, id, ok := desktoplink.Parse(args[0]); ok && isDir(home) {
			return []string{"--home", home}, id
		}
	}
	return args, ""
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}
