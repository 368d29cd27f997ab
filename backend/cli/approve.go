package cli

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

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
	fmt.Fprintf(p.out, "  %s\n", req.Arguments)
	if lines := vault.ChangeText(i18n.Current(), req.Change, vault.TextLimits{Lines: 12}); len(lines) > 0 {
		fmt.Fprintf(p.out, "  %s\n", i18n.T("cli.approve.change"))
		for _, l := range lines {
			fmt.Fprintf(p.out, "    %s\n", l)
		}
	}
	if len(req.Commands) > 0 {
		fmt.Fprintf(p.out, "  %s\n", i18n.T("cli.approve.commands"))
		for _, c := range req.Commands {
			fmt.Fprintf(p.out, "    $ %s\n", c)
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
