package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"hermes/backend/agent"
	"hermes/backend/event"
	"hermes/backend/host"
	"hermes/backend/i18n"
	"hermes/backend/runapi"
	"hermes/backend/runner"
)

// follow prints run id's events as w gives them and answers what the run
// asks, until its leg is over, and maps how it ended to the exit code. It
// is the one path of `hermes run` and `hermes resume`, whether this process
// runs the loop (it owns the home) or the owner does: the first Ctrl-C
// stops the run at its next safe point, the second cancels it at once, as
// the end of ctx (SIGTERM) does.
func follow(ctx context.Context, env *Env, f runFlags, h *host.Host, id string, w *runapi.Watcher) int {
	runs := h.Runs()
	show, flush := printerFor(env, f)
	defer flush()
	a := newAsker(env, runs, id, f.yes, h.Owns())
	presses := 0
	status := ""
	done := ctx.Done()
	for {
		events, more := w.Next()
		for _, e := range events {
			show(e)
			if e.Type == event.RunFinished {
				if d, err := event.Decode[event.RunFinishedData](e); err == nil {
					status = d.Status
				}
			}
		}
		a.see(events)
		if more == nil {
			break
		}
		select {
		case <-more:
		case <-env.Interrupts:
			presses++
			kind := agent.ControlStop
			if presses > 1 {
				kind = runner.ControlCancel
			}
			if err := runs.Control(id, agent.Control{Kind: kind}); err != nil {
				fmt.Fprintln(env.Stderr, i18n.T("cli.error", err.Error()))
			} else if presses == 1 {
				fmt.Fprintln(env.Stderr, i18n.T("cli.run.stopping"))
			}
		case <-done:
			done = nil
			if err := runs.Control(id, agent.Control{Kind: runner.ControlCancel}); err != nil {
				fmt.Fprintln(env.Stderr, i18n.T("cli.error", err.Error()))
			}
		case <-h.Gone():
			// The stream ends by itself; what it holds is printed first.
		}
	}
	if status == "" {
		return fail(env, h.OwnerGone())
	}
	return exitCode(status)
}

// asker answers the approvals and questions of one run, the same way
// wherever the run goes on: --yes allows each call asked about (what the
// policy denies stays denied, since it is never asked) but one escaping
// the sandbox, which it denies; else a person at
// the terminal answers both. Without a terminal, a process that runs the
// loop itself has no one to ask, so the call is denied and the question
// gets no answer, while a run in another process waits for an answer in
// that process's window.
type asker struct {
	env  *Env
	runs runapi.Runs
	id   string
	yes  bool
	owns bool
	ask  *prompter // nil when no one is at the terminal
}

func newAsker(env *Env, runs runapi.Runs, id string, yes, owns bool) *asker {
	a := &asker{env: env, runs: runs, id: id, yes: yes, owns: owns}
	if !yes && stdinIsTerminal() {
		a.ask = newPrompter(os.Stdin, os.Stderr)
	}
	return a
}

// see answers what events ask that they do not answer too: a resumed run
// streams its earlier legs first, whose requests were answered long ago.
func (a *asker) see(events []event.Event) {
	var open []event.Event
	answered := map[string]bool{}
	for _, e := range events {
		switch e.Type {
		case event.ApprovalRequested, event.QuestionAsked:
			open = append(open, e)
		case event.ApprovalResolved:
			if d, err := event.Decode[event.ApprovalResolvedData](e); err == nil {
				answered[d.ApprovalID] = true
			}
		case event.QuestionAnswered:
			if d, err := event.Decode[event.QuestionAnsweredData](e); err == nil {
				answered[d.QuestionID] = true
			}
		}
	}
	for _, e := range open {
		// A prompt waits for a person; the run's events go on printing, and
		// a prompt still open when the run is over (a stop answered it) is
		// left behind.
		go func() {
			if e.Type == event.QuestionAsked {
				a.question(e, answered)
			} else {
				a.approval(e, answered)
			}
		}()
	}
}

func (a *asker) approval(e event.Event, answered map[string]bool) {
	var req event.ApprovalRequestedData
	if json.Unmarshal(e.Data, &req) != nil || answered[req.ApprovalID] {
		return
	}
	var ans runner.Answer
	switch {
	case a.yes && req.Escaping:
		fmt.Fprintln(a.env.Stderr, i18n.T("cli.approve.yes_escaping", req.Name))
		ans = runner.Answer{Decision: event.ApproveDeny, Reason: i18n.In(i18n.EN, "cli.approve.yes_escaping_model")}
	case a.yes:
		ans = runner.Answer{Decision: event.ApproveOnce}
	case a.ask != nil:
		got := a.ask.ask(req)
		ans = runner.Answer{Decision: got.decision, Reason: got.reason, Pattern: got.pattern}
	case a.owns:
		fmt.Fprintln(a.env.Stderr, i18n.T("cli.approve.no_terminal", req.Name))
		ans = runner.Answer{Decision: event.ApproveDeny, Reason: i18n.In(i18n.EN, "cli.approve.no_one")}
	default:
		fmt.Fprintln(a.env.Stderr, i18n.T("cli.run.owner_approval", req.Name))
		return
	}
	// A person at a window may have answered first; theirs stands.
	_ = a.runs.Approve(a.id, req.ApprovalID, ans)
}

func (a *asker) question(e event.Event, answered map[string]bool) {
	var q event.QuestionAskedData
	if json.Unmarshal(e.Data, &q) != nil || answered[q.QuestionID] {
		return
	}
	text := ""
	switch {
	case a.ask != nil:
		text = a.ask.question(q.Question)
	case a.owns:
		// An empty answer tells the model that no one can answer, so it
		// does not guess again.
		fmt.Fprintln(a.env.Stderr, i18n.T("cli.question.no_terminal", q.Argument, q.Tool))
	default:
		fmt.Fprintln(a.env.Stderr, i18n.T("cli.run.owner_question", q.Argument, q.Tool))
		return
	}
	_ = a.runs.Control(a.id, agent.Control{Kind: agent.ControlAnswer, QuestionID: q.QuestionID, Text: text})
}
