// Package cli is Hermes' command line: `hermes run`, `hermes resume`,
// `hermes runs`, `hermes serve`. main.go hands it the arguments; the desktop
// window, which needs Wails, is passed in as a function so this package stays
// free of it.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
	"strings"

	"hermes/backend/i18n"
)

// Env is what a command may use of the process it runs in. Tests fill it with
// buffers and a fake environment.
type Env struct {
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
	// Assets is the built web UI (frontend/dist), nil in builds without it.
	Assets fs.FS
	// Desktop opens the desktop window; nil in headless builds.
	Desktop func(w Window) error
	// Interrupts delivers Ctrl-C presses to a running command; nil means none arrive.
	Interrupts <-chan os.Signal
	Version    string
}

// Exit codes. They are documented in docs/running.md; scripts rely on them.
const (
	ExitOK            = 0
	ExitFailed        = 1
	ExitUsage         = 2
	ExitMaxIterations = 3
	ExitGuard         = 4
	ExitBudget        = 5
	ExitStopped       = 130
)

type command struct {
	name    string
	summary string // i18n key
	run     func(ctx context.Context, env *Env, args []string) int
}

// registered holds the commands that files of their own add in init, so
// that a new command touches no shared table.
var registered []command

func register(c command) { registered = append(registered, c) }

func commands() []command {
	core := []command{
		{"run", "cli.cmd.run", cmdRun},
		{"resume", "cli.cmd.resume", cmdResume},
		{"runs", "cli.cmd.runs", cmdRuns},
		{"serve", "cli.cmd.serve", cmdServe},
	}
	core = append(core, registered...)
	return append(core, command{"version", "cli.cmd.version", cmdVersion})
}

// Main runs the command named by args[0] (no arguments opens the desktop
// window) and returns the process exit code.
func Main(ctx context.Context, env *Env, args []string) int {
	if !quick(args) {
		TakeSignals(ctx)
	}
	if len(args) == 0 {
		return startBare(ctx, env, "")
	}
	name := args[0]
	if name == "-h" || name == "--help" || name == "help" {
		usage(env.Stdout)
		return ExitOK
	}
	if name == "--home" || strings.HasPrefix(name, "--home=") || name == "--new-window" {
		return bareWithFlags(ctx, env, args)
	}
	for _, c := range commands() {
		if c.name == name {
			return c.run(ctx, env, args[1:])
		}
	}
	fmt.Fprintln(env.Stderr, i18n.T("cli.unknown_command", name))
	usage(env.Stderr)
	return ExitUsage
}

func usage(w io.Writer) {
	fmt.Fprintln(w, i18n.T("cli.usage"))
	for _, c := range commands() {
		fmt.Fprintf(w, "  hermes %-8s %s\n", c.name, i18n.T(c.summary))
	}
}

// Window is how a bare `hermes` opens the desktop window.
type Window struct {
	Home string
	// New opens a window of its own on a home another window shows, which
	// is otherwise brought to the front in its place (`hermes --new-window`).
	New bool
	// Run is the run a link to it named (hermes://run/ID?home=HOME), the
	// window's first page; "" for none.
	Run string
}

// bareWithFlags is a bare `hermes --home DIR [--new-window]`: what [agent]
// mode says.
func bareWithFlags(ctx context.Context, env *Env, args []string) int {
	fs := newFlagSet(env, "hermes")
	home := fs.String("home", "", "cli.flag.home")
	newWindow := fs.Bool("new-window", false, "cli.flag.new_window")
	if err := parseFlags(fs, args); err != nil {
		return usageExit(err)
	}
	if *newWindow && env.Desktop != nil {
		e, open := *env, env.Desktop
		e.Desktop = func(w Window) error {
			w.New = true
			return open(w)
		}
		env = &e
	}
	return startBare(ctx, env, *home)
}

func openDesktop(env *Env, homeFlag string) int {
	if env.Desktop == nil {
		fmt.Fprintln(env.Stderr, i18n.T("cli.no_desktop"))
		return ExitUsage
	}
	home, err := resolveHome(env, homeFlag)
	if err != nil {
		return fail(env, err)
	}
	if err := env.Desktop(Window{Home: home}); err != nil {
		if errors.Is(err, ErrNoWindow) {
			fmt.Fprintln(env.Stderr, err)
			return ExitUsage
		}
		return fail(env, err)
	}
	return ExitOK
}

func cmdVersion(_ context.Context, env *Env, _ []string) int {
	fmt.Fprintln(env.Stdout, "hermes", env.Version)
	return ExitOK
}

// newFlagSet returns a flag set that reports its errors on env.Stderr.
//
// A flag's usage is the catalog key of its help ("cli.flag.home"), rendered
// when the help is printed (printDefaults): a command's start makes no
// messages for help it does not print.
func newFlagSet(env *Env, name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), i18n.T("cli.usage_of", name))
		printDefaults(fs)
	}
	return fs
}

// setUsage makes fs's help start with the usage line of message key.
func setUsage(fs *flag.FlagSet, key string) {
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), i18n.T(key))
		printDefaults(fs)
	}
}

// parseFlags is fs.Parse with its mistake told in the user's language:
// the flag package's own line is English, and is left out.
func parseFlags(fs *flag.FlagSet, args []string) error {
	out, usage := fs.Output(), fs.Usage
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	err := fs.Parse(args)
	fs.SetOutput(out)
	fs.Usage = usage
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(out, flagMistake(err))
		}
		fs.Usage()
	}
	return err
}

// The flag package's mistakes, as its errors word them.
var (
	flagUnknownRE = regexp.MustCompile(`^flag provided but not defined: -(.+)$`)
	flagValueRE   = regexp.MustCompile(`^invalid (?:boolean )?value "(.*)" for (?:flag )?-([^:]+): `)
	flagNoValueRE = regexp.MustCompile(`^flag needs an argument: -(.+)$`)
	flagSyntaxRE  = regexp.MustCompile(`^bad flag syntax: (.*)$`)
)

// flagMistake is a parse error of the flag package in the user's language.
func flagMistake(err error) string {
	msg := err.Error()
	if m := flagUnknownRE.FindStringSubmatch(msg); m != nil {
		return i18n.T("cli.flag_unknown", m[1])
	}
	if m := flagValueRE.FindStringSubmatch(msg); m != nil {
		return i18n.T("cli.flag_value", m[1], m[2])
	}
	if m := flagNoValueRE.FindStringSubmatch(msg); m != nil {
		return i18n.T("cli.flag_no_value", m[1])
	}
	if m := flagSyntaxRE.FindStringSubmatch(msg); m != nil {
		return i18n.T("cli.flag_syntax", m[1])
	}
	return msg
}

// printDefaults is fs.PrintDefaults with each flag's help rendered from its
// key in the current language.
func printDefaults(fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) { f.Usage = i18n.T(f.Usage) })
	fs.PrintDefaults()
}

// fail prints err for a person and returns ExitFailed.
func fail(env *Env, err error) int {
	fmt.Fprintln(env.Stderr, i18n.T("cli.error", err.Error()))
	return ExitFailed
}
