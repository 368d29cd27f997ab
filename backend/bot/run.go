package bot

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"time"

	"hermes/backend/agent"
	"hermes/backend/chat"
	"hermes/backend/event"
	"hermes/backend/i18n"
	"hermes/backend/runlog"
	"hermes/backend/runner"
)

// liveRun is a session's running task, as the bot follows it through the
// run's events. It is the run's event sink: Write is called in seq order,
// under the run's emitter lock, so it only records and queues.
type liveRun struct {
	s          *session
	task       string
	generation int
	lang       i18n.Lang        // of the message that started the run
	redact     *runlog.Redactor // the run's, from its setup

	mu        sync.Mutex
	id        string         // the run's, from its first event
	limit     *time.Timer    // stops the run after [bot] run_timeout
	answerTo  []chat.Replier // the senders of the task and of the instructions it took
	pending   []inbound      // injected messages the run has not taken yet
	next      []inbound      // messages that came too late for the run: the next run's task
	iteration int
	tokens    int
	started   int // tool calls that started, over every leg of the run
	paused    bool
	finishing bool // the model has given its final answer: no step follows
	lastTool  string
	draft     strings.Builder
	asked     map[string]asked // approval id -> the call asked about
	question  string           // the id of the question the run waits on; "" when none
	done      bool
}

type asked struct {
	name, reason string // reason in the sender's language, or the process's
	escaping     bool
	change       json.RawMessage // what the call would change, when its tool can tell
}

// inject adds a message to the run as an instruction for its next step,
// or, once the model has given its final answer and no step follows, keeps
// it as the task of the run after this one. It returns the key of the reply
// that tells the sender which, or "" once the run has ended: the message
// then starts a run of its own.
func (lr *liveRun) inject(in inbound) string {
	lr.mu.Lock()
	switch {
	case lr.done:
		lr.mu.Unlock()
		return ""
	case lr.finishing:
		lr.next = append(lr.next, in)
		lr.mu.Unlock()
		return "bot.next_task"
	}
	lr.pending = append(lr.pending, in)
	lr.mu.Unlock()
	// A run that ends before it takes the message leaves it pending, and
	// session.finished hands it on.
	lr.control(agent.Control{Kind: agent.ControlInject, Text: in.msg.Text})
	return "bot.injected"
}

// answer sends a message as the answer to the question the run waits on,
// and reports false when no question is open. The sender then hears the
// run's outcome too. The question closes at once, so a second message is an
// instruction again.
func (lr *liveRun) answer(in inbound) bool {
	lr.mu.Lock()
	if lr.done || lr.question == "" {
		lr.mu.Unlock()
		return false
	}
	question := lr.question
	lr.question = ""
	lr.answerTo = append(lr.answerTo, in.r)
	lr.mu.Unlock()
	lr.control(agent.Control{Kind: agent.ControlAnswer, QuestionID: question, Text: in.msg.Text})
	return true
}

// control queues c for the run, through the manager, as a window attached
// to the bot does. It is called without lr.mu held: the manager writes the
// run's events, which lock lr.mu, under a lock of its own. A run that has
// ended meanwhile is no error: the control comes after its last safe point.
func (lr *liveRun) control(c agent.Control) {
	id := lr.runID()
	if err := lr.s.b.runs.Control(id, c); err != nil && !errors.Is(err, runner.ErrNotLive) {
		lr.s.b.log.Error("control not sent", "session", lr.s.key, "run", id, "kind", c.Kind, "err", err)
	}
}

func (lr *liveRun) runID() string {
	lr.mu.Lock()
	defer lr.mu.Unlock()
	return lr.id
}

// stopAfter stops the run once d has passed, unless it has ended.
func (lr *liveRun) stopAfter(d time.Duration) {
	lr.mu.Lock()
	defer lr.mu.Unlock()
	if !lr.done {
		lr.limit = time.AfterFunc(d, func() { lr.control(agent.Control{Kind: agent.ControlStop}) })
	}
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
	if lr.id == "" {
		lr.id = e.RunID
	}
	switch e.Type {
	case event.IterationStarted:
		lr.iteration = e.Iteration
		lr.finishing = false // an answer the run did not end with
		lr.draft.Reset()
	case event.ModelDelta:
		d, err := event.Decode[event.ModelDeltaData](e)
		if err != nil {
			return
		}
		lr.draft.WriteString(d.Text)
		lr.showDraft()
	case event.ModelDecided:
		if d, err := event.Decode[event.ModelDecidedData](e); err == nil {
			lr.tokens += d.Usage.TotalTokens
			// The run takes an instruction only after a step's tool calls:
			// with the final answer given, none follows.
			lr.finishing = len(d.ToolCalls) == 0 && strings.TrimSpace(d.FinalAnswer) != ""
		}
	case event.ToolStarted:
		if d, err := event.Decode[event.ToolStartedData](e); err == nil {
			lr.lastTool = d.Name
			if d.Attempt <= 1 {
				lr.started++
			}
		}
	case event.ApprovalRequested:
		if d, err := event.Decode[event.ApprovalRequestedData](e); err == nil {
			reason := d.Reason
			if r := d.ReasonIn[string(lr.lang)]; r != "" {
				reason = r
			}
			lr.asked[d.ApprovalID] = asked{d.Name, reason, d.Escaping, d.Change}
		}
	case event.ApprovalResolved:
		d, err := event.Decode[event.ApprovalResolvedData](e)
		if err != nil || d.By != "unattended" {
			return
		}
		a := lr.asked[d.ApprovalID]
		text := i18n.In(lr.lang, "bot.denied", a.name, a.reason)
		if a.escaping {
			text = i18n.In(lr.lang, "bot.denied_escaping", a.name)
		}
		if c := changeText(lr.lang, a.change); c != "" {
			text += "\n" + c
		}
		for _, r := range unique(lr.answerTo) {
			*posts = append(*posts, outbound{r: r, text: text, redact: lr.redact})
		}
	case event.QuestionAsked:
		q, err := event.Decode[event.QuestionAskedData](e)
		if err != nil {
			return
		}
		// Worded again in the language of the run's sender: the event's
		// text is in the process's.
		text := i18n.In(lr.lang, "bot.question", i18n.In(lr.lang, "agent.question", q.Argument, q.Value, q.Tool, i18n.Clause(q.Failure)))
		lr.question = q.QuestionID
		for _, r := range unique(lr.answerTo) {
			*posts = append(*posts, outbound{r: r, text: text, redact: lr.redact})
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
		if lr.limit != nil {
			lr.limit.Stop()
		}
	}
}

// showDraft shows the text the model is writing to the senders whose
// adapter can show it, scrubbed; call it with lr.mu held.
func (lr *liveRun) showDraft() {
	text := lr.s.b.scrub(settled(lr.draft.String()), lr.redact)
	for _, r := range unique(lr.answerTo) {
		if dr, ok := r.(chat.Drafter); ok {
			dr.Draft(text)
		}
	}
}

// settled is a draft without its trailing run of printable ASCII letters
// and signs, which may be the start of a secret: a redactor knows a secret
// only whole, so it is shown once a space or another character follows it.
func settled(draft string) string {
	i := len(draft)
	for i > 0 && draft[i-1] > ' ' && draft[i-1] < 0x7f {
		i--
	}
	return draft[:i]
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
	lastTool, iteration, started := lr.lastTool, lr.iteration, lr.started
	lr.mu.Unlock()
	switch res.Status {
	case event.StatusFinished:
		return res.Answer
	case event.StatusStopped:
		where := ""
		if lastTool != "" {
			where = i18n.In(lang, "bot.stopped_last_tool", lastTool)
		}
		// The step it stood at, which a stop after the model's decision
		// leaves unfinished and so uncounted in the totals; and the calls
		// that ran, where the totals count those decided too.
		t := res.Totals
		return i18n.In(lang, "bot.stopped", max(iteration, t.Iterations), started, t.TotalTokens, where)
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
type fanout struct{ rs []chat.Replier }

// replierFor is one replier for all of rs.
func replierFor(rs []chat.Replier) chat.Replier {
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
		if d, ok := r.(chat.Drafter); ok {
			d.Draft(text)
		}
	}
}
