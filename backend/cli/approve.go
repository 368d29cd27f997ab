package cli

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/term"

	"hermes/backend/event"
	"hermes/backend/i18n"
	"hermes/backend/vault"
)

// stdinIsTerminal reports whether a person can answer prompts on stdin.
func stdinIsTerminal() bool { return term.IsTerminal(int(os.Stdin.Fd())) }

// prompter asks a person at the terminal to approve calls, one at a time.
type prompter struct {
	mu  sync.Mutex
	in  *bufio.Reader
	out io.Writer
}

func newPrompter(in io.Reader, out io.Writer) *prompter {
	return &prompter{in: bufio.NewReader(in), out: out}
}

// answer is a person's decision on one call (an event.Approve* value), with
// a denial's reason or an "always" pattern.
type answer struct {
	decision, reason, pattern string
}

// ask shows the call, with an execute_command line's commands and what in
// it is always asked, or what a vault edit would change, and reads the
// decision. The end of input denies. A
// call escaping the sandbox is allowed once or denied: nothing else covers
// it.
func (p *prompter) ask(req event.ApprovalRequestedData) answer {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.out, "\n%s\n", i18n.T("cli.approve.title", req.Name, req.Risk))
	fmt.Fprintf(p.out, "  %s\n", shownOf(req.Arguments, argsShown))
	if lines := vault.ChangeText(i18n.Current(), req.Change, vault.TextLimits{Notes: commandsShown, Links: commandsShown, Lines: commandsShown, Width: commandShown}); len(lines) > 0 {
		fmt.Fprintf(p.out, "  %s\n", i18n.T("cli.approve.change"))
		for _, l := range lines {
			fmt.Fprintf(p.out, "    %s\n", l)
		}
	}
	if len(req.Commands) > 0 {
		fmt.Fprintf(p.out, "  %s\n", i18n.T("cli.approve.commands"))
		for i, c := range req.Commands {
			if i == commandsShown {
				fmt.Fprintf(p.out, "    %s\n", i18n.T("cli.approve.more_commands", len(req.Commands)-i))
				break
			}
			// A heredoc's lines stay under their command.
			fmt.Fprintf(p.out, "    $ %s\n", strings.ReplaceAll(shownOf(c, commandShown), "\n", "\n      "))
		}
	}
	for _, r := range req.Risky {
		fmt.Fprintf(p.out, "  ! %s\n", i18n.T("cli.approve.risky", r))
	}
	if req.Escaping {
		fmt.Fprintf(p.out, "  ! %s\n", i18n.T("cli.approve.escaping"))
	}
	// A run followed on a server words Reason in the server's language.
	reason := req.Reason
	if r := req.ReasonIn[string(i18n.Current())]; r != "" {
		reason = r
	}
	if reason != "" {
		fmt.Fprintf(p.out, "  %s\n", i18n.T("cli.approve.why", reason))
	}
	choices := i18n.T("cli.approve.choices")
	if req.Escaping {
		choices = i18n.T("cli.approve.choices_once")
	}
	for {
		fmt.Fprint(p.out, choices)
		line, ok := p.line()
		if !ok {
			return answer{decision: event.ApproveDeny, reason: "no answer was given"}
		}
		switch strings.ToLower(line) {
		case "o", "once", "y", "yes":
			return answer{decision: event.ApproveOnce}
		case "r", "run":
			if !req.Escaping {
				return answer{decision: event.ApproveRun}
			}
		case "a", "always":
			if !req.Escaping {
				return answer{decision: event.ApproveAlways, pattern: p.pattern(req.Patterns)}
			}
		case "d", "deny", "n", "no":
			fmt.Fprint(p.out, i18n.T("cli.approve.reason"))
			reason, _ := p.line()
			return answer{decision: event.ApproveDeny, reason: reason}
		}
	}
}

// What the prompt shows of a call, so that a megabyte of arguments (a file
// written whole, minified code on one line) leaves the question on the
// screen: the arguments' first argsShown characters, each command's first
// commandShown, and the first commandsShown commands (and of a vault
// edit's change, notes, links per note and lines per note; a line or a
// value as a command).
const (
	argsShown     = 600
	commandShown  = 300
	commandsShown = 12
)

// shownOf is s cut after n characters, never inside one, saying how many
// more there are.
func shownOf(s string, n int) string {
	i := 0
	for range n {
		if i == len(s) {
			return s
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	if i == len(s) {
		return s
	}
	return s[:i] + i18n.T("cli.approve.more_chars", utf8.RuneCountInString(s[i:]))
}

// pattern reads an "always" answer's pattern: for a command line, the
// patterns offered unless the person writes others.
func (p *prompter) pattern(offered []string) string {
	if len(offered) == 0 {
		fmt.Fprint(p.out, i18n.T("cli.approve.pattern"))
		pattern, _ := p.line()
		return pattern
	}
	joined := strings.Join(offered, "; ")
	fmt.Fprint(p.out, i18n.T("cli.approve.command_patterns", joined))
	if pattern, _ := p.line(); pattern != "" {
		return pattern
	}
	return joined
}

func (p *prompter) line() (string, bool) {
	s, err := p.in.ReadString('\n')
	if err != nil && s == "" {
		return "", false
	}
	return strings.TrimSpace(s), true
}
