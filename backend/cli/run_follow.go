package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"hermes/backend/agent"
	"hermes/backend/event"
	"hermes/backend/i18n"
	"hermes/backend/remote"
	"hermes/backend/runner"
)

// inOwner runs a task in the Hermes process that owns the home, when one
// does: the window or the bot shows the run live, and hermes.db stays with
// the owner, whose own runs would otherwise find it locked. start starts
// the run there (home is the home directory) and returns its id. attached is false when no live process
// owns the home: the run then goes on in this process.
func inOwner(ctx context.Context, env *Env, f runFlags, start func(c *remote.Client, home string) (string, error)) (code int, attached bool) {
	home, err := resolveHome(env, f.home)
	if err != nil {
		return fail(env, err), true
	}
	lock, err := remote.Probe(ctx, home)
	if err != nil {
		return 0, false
	}
	if f.config != "" || f.vault != "" {
		fmt.Fprintln(env.Stderr, i18n.T("cli.run.owner_flags", lock.Mode, lock.PID))
		return ExitUsage, true
	}
	client, err := remote.Dial(ctx, lock)
	if err != nil {
		return fail(env, err), true
	}
	defer func() { _ = client.Shutdown(context.Background()) }() // ends its streams at once
	fmt.Fprintln(env.Stderr, client.Attached())
	id, err := start(client, home)
	if err != nil {
		return failStart(env, err), true
	}
	w, err := client.Watch(id, 0)
	if err != nil {
		return fail(env, err), true
	}
	return follow(env, f, client, id, w), true
}

// follow prints the run's events as the owner streams them and answers its
// approvals, until the run's leg is over. The first Ctrl-C asks the owner
// to stop the run at its next safe point; the second stops watching.
func follow(env *Env, f runFlags, client *remote.Client, id string, w *runner.Watcher) int {
	show, flush := printerFor(env, f)
	defer flush()
	var prompt *prompter
	if !f.yes && stdinIsTerminal() {
		prompt = newPrompter(os.Stdin, os.Stderr)
	}
	presses := 0
	status := ""
	for {
		events, more := w.Next()
		for _, e := range events {
			show(e)
			switch e.Type {
			case event.ApprovalRequested:
				go approveInOwner(env, client, id, e, f.yes, prompt)
			case event.RunFinished:
				if d, err := event.Decode[event.RunFinishedData](e); err == nil {
					status = d.Status
				}
			}
		}
		if more == nil {
			break
		}
		select {
		case <-more:
		case <-env.Interrupts:
			presses++
			if presses > 1 {
				fmt.Fprintln(env.Stderr, i18n.T("cli.run.owner_detached", id))
				return ExitStopped
			}
			if err := client.Control(id, agent.Control{Kind: agent.ControlStop}); err != nil {
				fmt.Fprintln(env.Stderr, i18n.T("cli.error", err.Error()))
			}
			fmt.Fprintln(env.Stderr, i18n.T("cli.run.owner_stopping"))
		case <-client.Gone():
			// The stream ends by itself; what it holds is printed first.
		}
	}
	if status == "" {
		o := client.Owner()
		return fail(env, i18n.Wrap(remote.ErrOwnerGone, "remote.owner_gone", o.Mode, o.PID))
	}
	return exitCode(status)
}

// approveInOwner answers an approval the run asks for: yes with --yes, at
// the terminal when there is one, else in the owner's window.
func approveInOwner(env *Env, client *remote.Client, id string, e event.Event, yes bool, p *prompter) {
	var req event.ApprovalRequestedData
	if json.Unmarshal(e.Data, &req) != nil {
		return
	}
	var a answer
	switch {
	case yes:
		a = answer{decision: event.ApproveOnce}
	case p != nil:
		a = p.ask(req.Name, req.Risk, req.Arguments, req.Reason)
	default:
		fmt.Fprintln(env.Stderr, i18n.T("cli.run.owner_approval", req.Name))
		return
	}
	// A person at the owner may have answered first; theirs stands.
	_ = client.Approve(id, req.ApprovalID, runner.Answer{Decision: a.decision, Reason: a.reason, Pattern: a.pattern})
}
