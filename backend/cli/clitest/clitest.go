// Package clitest lets a package's tests run `hermes` as a real process: the
// test binary re-executes itself with HERMES_TEST_MAIN=1 and becomes hermes,
// with the same signal handling as main.go and, as a headless build, the
// window build beside it for a bare `hermes`. Production code never imports it.
package clitest

import (
	"fmt"
	"os"
	"testing"
	"time"

	"hermes/backend/cli"
)

// Main is a TestMain: it runs hermes with the process's arguments when the
// test binary was started as hermes, and the tests otherwise.
//
// Two more variables shape that process: HERMES_TEST_HARD_STOP (a
// duration) replaces cli.HardStop, and HERMES_TEST_BUSY=1 makes it spin
// instead of running a command, as one stuck in a long step that takes no
// signal would, once it has printed "busy".
func Main(m *testing.M) {
	if os.Getenv("HERMES_TEST_MAIN") == "1" {
		hardStop := cli.HardStop
		if d, err := time.ParseDuration(os.Getenv("HERMES_TEST_HARD_STOP")); err == nil {
			hardStop = d
		}
		ctx, interrupts, stop := cli.Signals(os.Stderr, hardStop)
		if os.Getenv("HERMES_TEST_BUSY") == "1" {
			cli.TakeSignals(ctx) // as a command that runs until stopped does
			fmt.Println("busy")
			spin()
		}
		code := cli.Main(ctx, &cli.Env{
			Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, Interrupts: interrupts, Version: "test",
			Desktop: cli.WindowBeside,
		}, os.Args[1:])
		stop()
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// spun keeps spin's work from being left out by the compiler.
var spun uint64

// spin keeps a core busy for a minute, far longer than a test waits, and
// then exits, so that a test that failed leaves no process behind.
func spin() {
	for end := time.Now().Add(time.Minute); time.Now().Before(end); {
		for range 1 << 20 {
			spun = spun*6364136223846793005 + 1442695040888963407
		}
	}
	os.Exit(cli.ExitFailed)
}
