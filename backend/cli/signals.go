package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"hermes/backend/host"
	"hermes/backend/i18n"
)

// HardStop is how long a process may go on after SIGTERM before it exits
// at once: the grace its runs get to reach a safe point (host.StopGrace),
// then the 5 s the local API's open requests get, with room to spare.
const HardStop = host.StopGrace + 15*time.Second

// hintAfter is how long a stop may take before the process says how to end
// it at once: a moment, so that a prompt stop says nothing.
const hintAfter = time.Second

// Signals is how a hermes process takes SIGTERM and Ctrl-C, the same in
// every command (main.go, and clitest for the tests' processes). A command
// listens to the two while it waits, but not in a long step of its own (a
// parse, a server that does not answer), so the process does not rely on
// it to end:
//   - the first SIGTERM ends ctx: the command stops gracefully, and a
//     process still there hardStop later exits at once;
//   - Ctrl-C presses go to interrupts one at a time: the first stops the
//     runs at their next safe point, the second cancels them at once, and
//     a process still there hardStop after that exits at once;
//   - a second SIGTERM, a Ctrl-C after SIGTERM, a third Ctrl-C, or a
//     Ctrl-C while the one before was not taken (the command is busy)
//     exits at once; a stop that has taken hintAfter already says so.
//
// Exiting at once is ExitStopped with a line on stderr that says why and
// how to go on: a run cut short resumes from its last checkpoint, as after
// a crash. stop undoes Signals once the command has returned.
//
// The two are taken once the command is known (TakeSignals, in Main), and
// not by the commands that only read and print (quick): Go sets a thread
// aside for signals in the process that first asks for any, 0.6 ms of CPU
// that `hermes version` would spend on nothing. Those end at Ctrl-C or
// SIGTERM as any program that takes neither does.
func Signals(stderr io.Writer, hardStop time.Duration) (ctx context.Context, interrupts <-chan os.Signal, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	in := make(chan os.Signal, 4)
	out := make(chan os.Signal, 1)
	take := sync.OnceFunc(func() { signal.Notify(in, os.Interrupt, syscall.SIGTERM) })
	ctx = context.WithValue(ctx, takeKey{}, take)
	done := make(chan struct{})
	go func() {
		var deadline, hint <-chan time.Time
		termed, presses := false, 0
		for {
			select {
			case s := <-in:
				switch {
				case s == syscall.SIGTERM && !termed && presses < 2:
					termed = true
					cancel()
					deadline, hint = time.After(hardStop), time.After(hintAfter)
					continue
				case s == syscall.SIGTERM:
					exitNow(stderr, "cli.signal.again", "SIGTERM")
				case termed:
					exitNow(stderr, "cli.signal.after_term")
				}
				presses++
				if presses > 2 {
					exitNow(stderr, "cli.signal.again", "Ctrl-C")
				}
				select {
				case out <- s:
				default:
					exitNow(stderr, "cli.signal.busy")
				}
				hint = time.After(hintAfter)
				if presses == 2 {
					deadline = time.After(hardStop)
				}
			case <-hint:
				switch {
				case termed:
					fmt.Fprintln(stderr, i18n.T("cli.signal.stopping", hardStop))
				case len(out) > 0:
					fmt.Fprintln(stderr, i18n.T("cli.signal.busy_hint"))
				}
			case <-deadline:
				exitNow(stderr, "cli.signal.late", hardStop)
			case <-done:
				return
			}
		}
	}()
	return ctx, out, func() {
		signal.Stop(in)
		close(done)
		cancel()
	}
}

type takeKey struct{}

// TakeSignals makes the process take SIGTERM and Ctrl-C as the Signals
// that made ctx prepared; a ctx from elsewhere has none to take.
func TakeSignals(ctx context.Context) {
	if take, ok := ctx.Value(takeKey{}).(func()); ok {
		take()
	}
}

// quick reports whether args name a command that only reads and prints
// (version, help, runs, config, tools list, skills list), and so takes no
// signals: there is no run to stop nor anything to undo.
func quick(args []string) bool {
	if len(args) == 0 {
		return false
	}
	switch args[0] {
	case "version", "help", "-h", "--help", "runs", "config":
		return true
	case "tools", "skills":
		return len(args) > 1 && args[1] == "list"
	}
	return false
}

func exitNow(stderr io.Writer, key string, args ...any) {
	fmt.Fprintln(stderr, i18n.T(key, args...))
	os.Exit(ExitStopped)
}
