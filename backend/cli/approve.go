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

// ask shows the call and reads the decision. The end of input denies.
func (p *prompter) ask(name, risk, args, why string) answer {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.out, "\n%s\n", i18n.T("cli.approve.title", name, risk))
	fmt.Fprintf(p.out, "  %s\n", args)
	if why != "" {
		fmt.Fprintf(p.out, "  %s\n", i18n.T("cli.approve.why", why))
	}
	for {
		fmt.Fprint(p.out, i18n.T("cli.approve.choices"))
		line, ok := p.line()
		if !ok {
			return answer{decision: event.ApproveDeny, reason: "no answer was given"}
		}
		switch strings.ToLower(line) {
		case "o", "once", "y", "yes":
			return answer{decision: event.ApproveOnce}
		case "r", "run":
			return answer{decision: event.ApproveRun}
		case "a", "always":
			fmt.Fprint(p.out, i18n.T("cli.approve.pattern"))
			pattern, _ := p.line()
			return answer{decision: event.ApproveAlways, pattern: pattern}
		case "d", "deny", "n", "no":
			fmt.Fprint(p.out, i18n.T("cli.approve.reason"))
			reason, _ := p.line()
			return answer{decision: event.ApproveDeny, reason: reason}
		}
	}
}

func (p *prompter) line() (string, bool) {
	s, err := p.in.ReadString('\n')
	if err != nil && s == "" {
		return "", false
	}
	return strings.TrimSpace(s), true
}
