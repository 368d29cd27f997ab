// Hermes is a desktop workbench for AI agents. With no arguments it opens
// the desktop window; subcommands run the same engine headless.
package main

import (
	"os"

	"hermes/backend/cli"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	if len(os.Args) > 1 {
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
		Desktop:    desktopEntry(),
		Interrupts: interrupts,
		Version:    version,
	}, os.Args[1:])
	stop()
	os.Exit(code)
}
