// Package clitest lets a package's tests run `hermes` as a real process: the
// test binary re-executes itself with HERMES_TEST_MAIN=1 and becomes hermes,
// with the same signal handling as main.go. Production code never imports it.
package clitest

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"testing"

	"hermes/backend/cli"
)

// Main is a TestMain: it runs hermes with the process's arguments when the
// test binary was started as hermes, and the tests otherwise.
func Main(m *testing.M) {
	if os.Getenv("HERMES_TEST_MAIN") == "1" {
		interrupts := make(chan os.Signal, 2)
		signal.Notify(interrupts, os.Interrupt)
		ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
		code := cli.Main(ctx, &cli.Env{
			Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, Interrupts: interrupts, Version: "test",
		}, os.Args[1:])
		stop()
		os.Exit(code)
	}
	os.Exit(m.Run())
}
