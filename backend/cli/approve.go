package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"golang.org/x/term"

	"hermes/backend/agent"
	"hermes/backend/event"
	"hermes/backend/i18n"
	"hermes/backend/runner"
	"hermes/backend/skills"
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

// approvals answers a run's approval requests and questions: at the
// terminal when p is set, else by telling the person why a call was denied
// (the run is unattended, so the loop denies it) or that no one can answer.
// It returns when sub closes.
func approvals(env *Env, run *agent.Run, sub *event.Subscription, p *prompter) {
	for e := range sub.C {
		if e.Type == event.QuestionAsked {
			answerQuestion(env, run, e, p)
			continue
		}
		if e.Type != event.ApprovalRequested {
			continue
		}
		var req event.ApprovalRequestedData
		if json.Unmarshal(e.Data, &req) != nil {
			continue
		}
		if p == nil {
			fmt.Fprintln(env.Stderr, i18n.T("cli.approve.no_terminal", req.Name))
			continue
		}
		a := p.ask(req.Name, req.Risk, req.Arguments, req.Reason)
		run.Controls().Send(agent.Control{
			Kind: agent.ControlApprove, ApprovalID: req.ApprovalID, Decision: a.decision, Reason: a.reason, Pattern: a.pattern,
		})
	}
}

// yesPolicy is --yes: what the policy would ask is allowed for this run;
// what it denies stays denied.
type yesPolicy struct{ skills.Policy }

func (y yesPolicy) Check(t skills.Tool, args json.RawMessage) skills.Verdict {
	v := y.Policy.Check(t, args)
	if v.Action == skills.Ask {
		return skills.Verdict{Action: skills.Allow, Reason: "--yes: " + v.Reason}
	}
	return v
}

// approvalMode sets how a run's asked calls are answered: --yes allows
// them, a terminal on stdin prompts, and anything else denies them. It
// returns the prompter, nil when no one is asked.
func approvalMode(setup *agent.Setup, yes bool) *prompter {
	switch {
	case yes:
		setup.Policy = yesPolicy{setup.Policy}
	case stdinIsTerminal():
		return newPrompter(os.Stdin, os.Stderr)
	default:
		setup.Unattended = true
	}
	return nil
}

// sessionSkills is the part of a `hermes run` session that the skills add:
// the loaded skills, and who answers approvals.
type sessionSkills struct {
	kit    *runner.Toolkit
	prompt *prompter // nil when no one answers at the terminal
}

// useSkills replaces the session's tools with the loaded skills and their
// policy, reports broken skills, and sets how approvals are answered. It
// must run before the run is created, which copies the setup.
func (s *session) useSkills(ctx context.Context, env *Env, home string, yes bool) error {
	kit, err := openToolkit(ctx, home, s.cfg, s.store)
	if err != nil {
		return err
	}
	for _, p := range kit.Catalog.Problems() {
		fmt.Fprintln(env.Stderr, i18n.T("cli.skills.problem", p.Error()))
	}
	s.kit = kit
	kit.Apply(&s.setup)
	s.prompt = approvalMode(&s.setup, yes)
	return nil
}

func (s *session) closeSkills() {
	if s.kit != nil {
		s.kit.Close()
	}
}

// watchApprovals answers the run's approval requests and questions until
// the returned subscription is unsubscribed.
func (s *session) watchApprovals(env *Env, run *agent.Run) *event.Subscription {
	asks := s.setup.Bus.Subscribe(16, func(e event.Event) bool {
		return e.Type == event.ApprovalRequested || e.Type == event.QuestionAsked
	})
	go approvals(env, run, asks, s.prompt)
	return asks
}
