// Hermes is a desktop workbench for AI agents. With no arguments it opens
// the desktop window; subcommands run the same engine headless.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"hermes/backend/cli"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	// Interrupts go to the command, which stops a run at a safe point on the
	// first and cancels it on the second; SIGTERM cancels at once.
	interrupts := make(chan os.Signal, 2)
	signal.Notify(interrupts, os.Interrupt)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
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
