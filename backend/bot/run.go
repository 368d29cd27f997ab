package bot

import (
	"context"
	"errors"
	"strings"
	"sync"

	"hermes/backend/agent"
	"hermes/backend/event"
	"hermes/backend/i18n"
)

// liveRun is a session's running task, as the bot follows it through the
// run's events. It is the run's event sink: Write is called in seq order,
// under the run's emitter lock, so it only records and queues.
type liveRun struct {
	s          *session
	run        *agent.Run
	task       string
	generation int
	lang       i18n.Lang // of the message that started the run

	mu        sync.Mutex
	answerTo  []Replier // the senders of the task and of the instructions it took
	pending   []inbound // injected messages the run has not taken yet
	iteration int
	tokens    int
	paused    bool
	lastTool  string
	draft     strings.Builder
	asked     map[string]asked // approval id -> the call asked about
	question  string           // the id of the question the run waits on; "" when none
	done      bool
}

type asked struct{ name, reason string }

// inject adds a message to the run as an instruction for its next step. It
// reports false once the run has ended, and the message then starts a run
// of its own.
func (lr *liveRun) inject(in inbound) bool {
	lr.mu.Lock()
	defer lr.mu.Unlock()
	if lr.done {
		return false
	}
	lr.pending = append(lr.pending, in)
	lr.run.Controls().Send(agent.Control{Kind: agent.ControlInject, Text: in.msg.Text})
	return true
}

// answer sends a message as the answer to the question the run waits on,
// and reports false when no question is open. The sender then hears the
// run's outcome too. The question closes at once, so a second message is an
// instruction again.
func (lr *liveRun) answer(in inbound) bool {
	lr.mu.Lock()
	defer lr.mu.Unlock()
	if lr.done || lr.question == "" {
		return false
	}
	lr.run.Controls().Send(agent.Control{Kind: agent.ControlAnswer, QuestionID: lr.question, Text: in.msg.Text})
	lr.question = ""
	lr.answerTo = append(lr.answerTo, in.r)
	return true
}

func (lr *liveRun) isPaused() bool {
	lr.mu.Lock()
	defer lr.mu.Unlock()
	return lr.paused
}

// Write follows the run's events. Replies are queued after lr.mu is let
// go, since the session locks its own mutex before lr.mu.
func (lr *liveRun) Write(e event.Event) error {
	var posts []outbound
	lr.mu.Lock()
	lr.follow(e, &posts)
	lr.mu.Unlock()
	lr.s.post(posts...)
	return nil
}

func (lr *liveRun) follow(e event.Event, posts *[]outbound) {
	switch e.Type {
	case event.IterationStarted:
		lr.iteration = e.Iteration
		lr.draft.Reset()
	case event.ModelDelta:
		d, err := event.Decode[event.ModelDeltaData](e)
		if err != nil {
			return
		}
		lr.draft.WriteString(d.Text)
		for _, r := range unique(lr.answerTo) {
			if dr, ok := r.(Drafter); ok {
				dr.Draft(lr.draft.String())
			}
		}
	case event.ModelDecided:
		if d, err := event.Decode[event.ModelDecidedData](e); err == nil {
			lr.tokens += d.Usage.TotalTokens
		}
	case event.ToolStarted:
		if d, err := event.Decode[event.ToolStartedData](e); err == nil {
			lr.lastTool = d.Name
		}
	case event.ApprovalRequested:
		if d, err := event.Decode[event.ApprovalRequestedData](e); err == nil {
			lr.asked[d.ApprovalID] = asked{d.Name, d.Reason}
		}
	case event.ApprovalResolved:
		d, err := event.Decode[event.ApprovalResolvedData](e)
		if err != nil || d.By != "unattended" {
			return
		}
		a := lr.asked[d.ApprovalID]
		text := i18n.In(lr.lang, "bot.denied", a.name, a.reason)
		for _, r := range unique(lr.answerTo) {
			*posts = append(*posts, outbound{r: r, text: text})
		}
	case event.QuestionAsked:
		q, err := event.Decode[event.QuestionAskedData](e)
		if err != nil {
			return
		}
		// Worded again in the language of the run's sender: the event's
		// text is in the process's.
		text := i18n.In(lr.lang, "bot.question", i18n.In(lr.lang, "agent.question", q.Argument, q.Value, q.Tool, q.Failure))
		lr.question = q.QuestionID
		for _, r := range unique(lr.answerTo) {
			*posts = append(*posts, outbound{r: r, text: text})
		}
	case event.QuestionAnswered:
		d, err := event.Decode[event.QuestionAnsweredData](e)
		if err != nil {
			return
		}
		if d.QuestionID == lr.question {
			lr.question = "" // answered by a stop, or before the person wrote
		}
		// An instruction sent just before the question answers it: it is
		// taken, not left to start a run of its own.
		lr.take(d.Answer)
	case event.InstructionInjected:
		if d, err := event.Decode[event.InstructionInjectedData](e); err == nil {
			lr.take(d.Text)
		}
	case event.RunPaused:
		lr.paused = true
	case event.RunResumed:
		lr.paused = false
	case event.RunFinished:
		// From here on a message starts a run of its own; what was injected
		// but not taken is handed on by session.finished.
		lr.done = true
	}
}

// take marks the pending instruction of text as taken by the run; its
// sender hears the run's outcome. Call it with lr.mu held.
func (lr *liveRun) take(text string) {
	for i, p := range lr.pending {
		if p.msg.Text == text {
			lr.answerTo = append(lr.answerTo, p.r)
			lr.pending = append(lr.pending[:i:i], lr.pending[i+1:]...)
			return
		}
	}
}

// outcome is the reply that ends a run: its answer, or where it stood.
func (lr *liveRun) outcome(res agent.Result, lang i18n.Lang) string {
	lr.mu.Lock()
	lastTool := lr.lastTool
	lr.mu.Unlock()
	switch res.Status {
	case event.StatusFinished:
		return res.Answer
	case event.StatusStopped:
		where := ""
		if lastTool != "" {
			where = i18n.In(lang, "bot.stopped_last_tool", lastTool)
		}
		t := res.Totals
		return i18n.In(lang, "bot.stopped", t.Iterations, t.ToolCalls, t.TotalTokens, where)
	case event.StatusFailed:
		return i18n.In(lang, "bot.failed", res.Error)
	default:
		return i18n.In(lang, "bot.ended", statusWords(res.Status, res.Error, lang))
	}
}

// statusWords says how a run ended, for a person.
func statusWords(status, errText string, lang i18n.Lang) string {
	switch status {
	case event.StatusMaxIterations:
		return i18n.In(lang, "bot.status.max_iterations")
	case event.StatusGuard:
		return i18n.In(lang, "bot.status.guard", errText)
	case event.StatusBudget:
		return i18n.In(lang, "bot.status.budget")
	case event.StatusFinished, event.StatusStopped, event.StatusFailed:
		return i18n.In(lang, "bot.status."+status)
	}
	return status
}

// fanout replies to the senders of several messages at once: those whose
// instructions a run ended too soon to take, now the task of a run of
// their own.
type fanout struct{ rs []Replier }

// replierFor is one replier for all of rs.
func replierFor(rs []Replier) Replier {
	rs = unique(rs)
	if len(rs) == 1 {
		return rs[0]
	}
	return &fanout{rs: rs}
}

func (f *fanout) Reply(ctx context.Context, text string, final bool) error {
	var errs []error
	for _, r := range f.rs {
		errs = append(errs, r.Reply(ctx, text, final))
	}
	return errors.Join(errs...)
}

func (f *fanout) Draft(text string) {
	for _, r := range f.rs {
		if d, ok := r.(Drafter); ok {
			d.Draft(text)
		}
	}
}
