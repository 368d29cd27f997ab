package bot

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"

	"hermes/backend/agent"
	"hermes/backend/chat"
	"hermes/backend/event"
	"hermes/backend/i18n"
	"hermes/backend/runlog"
	"hermes/backend/runner"
)

// record is what a session keeps across restarts.
type record struct {
	V          int        `json:"v"`
	Generation int        `json:"generation"` // raised by /new
	History    []exchange `json:"history,omitempty"`
	Runs       []string   `json:"runs,omitempty"` // this session's run ids, oldest first
	LastRun    string     `json:"last_run,omitempty"`
	LastTask   string     `json:"last_task,omitempty"`
	LastStatus string     `json:"last_status,omitempty"`
	LastError  string     `json:"last_error,omitempty"`
	Lang       i18n.Lang  `json:"lang,omitempty"`
}

// exchange is one task of the session and its answer.
type exchange struct {
	User   string `json:"user"`
	Answer string `json:"answer"`
}

const recordVersion = 1

// maxRunsKept bounds the run ids a session record lists.
const maxRunsKept = 100

type inbound struct {
	msg chat.Message
	r   chat.Replier
}

type outbound struct {
	r      chat.Replier
	text   string
	final  bool
	redact *runlog.Redactor // of the run the text is about; nil for none
}

// session is one user's conversation with the bot. Its messages are handled
// one at a time, in order, by a worker that exists while there are some;
// its replies go out in order through an outbox of the same kind.
type session struct {
	b        *Bot
	key      string
	platform string
	user     string

	saveMu  sync.Mutex // orders the writes of the record
	mu      sync.Mutex
	loaded  bool
	rec     record
	lang    i18n.Lang
	inbox   []inbound
	working bool
	live    *liveRun
	ws      string // the workspace, once made; only the worker uses it
	outbox  []outbound
	sending bool
}

func (s *session) enqueue(in inbound) {
	s.mu.Lock()
	s.inbox = append(s.inbox, in)
	s.wake()
	s.mu.Unlock()
}

// wake starts the worker unless it is running; call it with s.mu held.
func (s *session) wake() {
	if !s.working {
		s.working = true
		s.b.workers.Add(1)
		go s.work()
	}
}

func (s *session) work() {
	defer s.b.workers.Done()
	for {
		s.mu.Lock()
		if len(s.inbox) == 0 {
			s.working = false
			s.mu.Unlock()
			return
		}
		in := s.inbox[0]
		s.inbox = s.inbox[1:]
		s.mu.Unlock()
		s.handle(in)
	}
}

// post queues replies; the outbox goroutine sends them in order.
func (s *session) post(msgs ...outbound) {
	s.mu.Lock()
	s.outbox = append(s.outbox, msgs...)
	start := !s.sending && len(s.outbox) > 0
	if start {
		s.sending = true
		s.b.sends.Add(1)
	}
	s.mu.Unlock()
	if start {
		go s.send()
	}
}

func (s *session) send() {
	defer s.b.sends.Done()
	for {
		s.mu.Lock()
		if len(s.outbox) == 0 {
			s.sending = false
			s.mu.Unlock()
			return
		}
		o := s.outbox[0]
		s.outbox = s.outbox[1:]
		s.mu.Unlock()
		// The one way out to a chat, drafts aside (liveRun.showDraft).
		if err := o.r.Reply(s.b.sendCtx, s.b.scrub(o.text, o.redact), o.final); err != nil {
			s.b.log.Error("reply not delivered", "session", s.key, "err", s.b.scrub(err.Error(), o.redact))
		}
	}
}

func (s *session) say(r chat.Replier, lang i18n.Lang, key string, args ...any) {
	s.post(outbound{r: r, text: i18n.In(lang, key, args...), final: true})
}

// load reads the stored session on first use. Only the worker calls it,
// and it reads without holding s.mu, so callbacks that queue messages never
// wait for the database.
func (s *session) load() {
	s.mu.Lock()
	loaded := s.loaded
	s.mu.Unlock()
	if loaded && s.b.shared == nil {
		return // a replica reads it afresh: another may have changed it
	}
	var rec record
	data, err := s.b.sessionStore.Load(s.key)
	if err == nil && data != nil {
		err = json.Unmarshal(data, &rec)
	}
	if err != nil {
		s.b.log.Error("session not loaded; starting afresh", "session", s.key, "err", err)
		rec = record{}
	}
	s.mu.Lock()
	s.loaded, s.rec = true, rec
	if rec.Lang != "" {
		s.lang = rec.Lang
	}
	s.mu.Unlock()
}

// save stores the session as change leaves it. The record is changed and
// encoded under s.mu, and written after s.mu is let go; saveMu keeps the
// writes in the order of the changes.
func (s *session) save(change func(*record)) {
	s.saveMu.Lock()
	defer s.saveMu.Unlock()
	err := s.b.sessionStore.Update(s.key, func(stored []byte) ([]byte, error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		if stored != nil {
			s.rec = mergeRecord(stored, s.rec)
		}
		change(&s.rec)
		s.rec.V, s.rec.Lang = recordVersion, s.lang
		return json.Marshal(s.rec)
	})
	if err != nil {
		s.b.log.Error("session not saved", "session", s.key, "err", err)
	}
}

func (s *session) handle(in inbound) {
	s.load()
	s.mu.Lock()
	s.lang = langOf(in.msg.Text, s.lang)
	lang := s.lang
	cmd, isCmd := parseCommand(in.msg.Text)
	live := s.live
	s.mu.Unlock()

	if !s.allowed(in, lang) {
		return
	}
	if live == nil && s.steerElsewhere(in, cmd, lang) {
		return
	}
	if !isCmd {
		if live != nil && live.answer(in) {
			s.post(outbound{r: in.r, text: i18n.In(lang, "bot.answered")})
			return
		}
		if live != nil {
			if key := live.inject(in); key != "" {
				s.post(outbound{r: in.r, text: i18n.In(lang, key)})
				return
			}
		}
		s.start(in, strings.TrimSpace(in.msg.Text), lang)
		return
	}
	switch cmd {
	case cmdHelp:
		s.say(in.r, lang, "bot.help")
	case cmdStatus:
		s.mu.Lock()
		text := s.status(lang)
		s.mu.Unlock()
		s.post(outbound{r: in.r, text: text, final: true})
	case cmdStop:
		if live == nil {
			s.say(in.r, lang, "bot.idle")
			return
		}
		live.control(agent.Control{Kind: agent.ControlStop})
		s.say(in.r, lang, "bot.stopping")
	case cmdPause:
		if live == nil {
			s.say(in.r, lang, "bot.idle")
			return
		}
		live.control(agent.Control{Kind: agent.ControlPause})
		s.say(in.r, lang, "bot.pausing")
	case cmdPin:
		fact := commandArg(in.msg.Text)
		switch {
		case live == nil:
			s.say(in.r, lang, "bot.idle")
		case fact == "":
			s.say(in.r, lang, "bot.pin_usage")
		default:
			live.control(agent.Control{Kind: agent.ControlPin, Text: fact})
			s.say(in.r, lang, "bot.pinned")
		}
	case cmdResume:
		s.resume(in, live, lang)
	case cmdNew:
		s.save(func(r *record) {
			r.Generation++
			r.History, r.LastRun, r.LastTask, r.LastStatus, r.LastError = nil, "", "", "", ""
		})
		if live != nil {
			live.control(agent.Control{Kind: agent.ControlStop})
			s.say(in.r, lang, "bot.new_stopped")
			return
		}
		s.say(in.r, lang, "bot.new")
	}
}

func (s *session) resume(in inbound, live *liveRun, lang i18n.Lang) {
	if live != nil {
		if !live.isPaused() {
			s.say(in.r, lang, "bot.not_paused")
			return
		}
		live.control(agent.Control{Kind: agent.ControlResume})
		s.say(in.r, lang, "bot.resuming")
		return
	}
	s.mu.Lock()
	last, task, status := s.rec.LastRun, s.rec.LastTask, s.rec.LastStatus
	setup := s.setup()
	s.mu.Unlock()
	if last == "" || status == event.StatusFinished {
		s.say(in.r, lang, "bot.nothing_to_resume")
		return
	}
	if s.b.isClosed() {
		s.say(in.r, lang, "bot.busy_closing")
		return
	}
	lr := s.newLive(in, task, setup)
	lr.started = s.startedBefore(last)
	var err error
	s.b.startOne(func() {
		err = s.launch(lr, func(h runner.Hooks) (string, error) {
			return last, s.b.runs.ResumeSetup(setup, last, s.b.sharingMemory(setup, h))
		})
	})
	if err != nil {
		s.notStarted(in.r, lang, err, setup.Redactor, last)
		return
	}
	s.post(outbound{r: in.r, text: i18n.In(lang, "bot.resumed_run", last)})
}

// startedBefore counts the tool calls that started in run id so far, read
// from its log before a resume cuts it back to the last checkpoint: calls
// that ran are counted even where their step is done again.
func (s *session) startedBefore(id string) int {
	events, err := s.b.runs.Events(id)
	if err != nil {
		return 0 // the resume fails and says why
	}
	n := 0
	for _, e := range events {
		if e.Type != event.ToolStarted {
			continue
		}
		if d, err := event.Decode[event.ToolStartedData](e); err == nil && d.Attempt <= 1 {
			n++
		}
	}
	return n
}

// notStarted tells the sender of a task that did not start (resume: of
// that run) why, and what to do.
func (s *session) notStarted(r chat.Replier, lang i18n.Lang, err error, redact *runlog.Redactor, resume string) {
	s.b.log.Error("run not started", "session", s.key, "resume", resume, "err", s.b.scrub(err.Error(), redact))
	var text string
	switch {
	case errors.Is(err, runner.ErrClosed):
		text = i18n.In(lang, "bot.busy_closing")
	case errors.Is(err, ErrWorkspace):
		text = i18n.In(lang, "bot.no_workspace", errorIn(lang, err))
	case resume != "":
		text = i18n.In(lang, "bot.not_resumed", resume, errorIn(lang, err))
	default:
		text = i18n.In(lang, "bot.not_started", errorIn(lang, err))
	}
	s.post(outbound{r: r, text: text, final: true, redact: redact})
}

// errorIn is err's text in lang, where err has one in both languages.
func errorIn(lang i18n.Lang, err error) string {
	if e, ok := err.(*i18n.Error); ok {
		return i18n.In(lang, e.Key, e.Args...)
	}
	return err.Error()
}

// start begins a run of task, with the session's earlier exchanges as its
// standing instructions.
func (s *session) start(in inbound, task string, lang i18n.Lang) {
	if s.b.isClosed() {
		if release(in.r) {
			return // another replica runs it
		}
		s.say(in.r, lang, "bot.busy_closing")
		return
	}
	if s.takeOver(in, task) {
		return
	}
	s.mu.Lock()
	history := slices.Clone(s.rec.History)
	setup := s.setup()
	s.mu.Unlock()
	asker := s.askedBy() // before startOne: it may wait on WeCom
	lr := s.newLive(in, task, setup)
	var err error
	s.b.startOne(func() {
		if s.ws == "" {
			var ws string
			if ws, err = s.b.makeWorkspace(s.platform, s.user); err != nil {
				return
			}
			s.ws = ws
		}
		t := agent.Task{Text: task, Instructions: historyInstructions(history), Workspace: s.ws, Origin: s.key, AskedBy: asker}
		err = s.launch(lr, s.b.copies.copied(taskKey(s.platform, in), false, func(h runner.Hooks) (string, error) {
			return s.b.runs.StartSetup(setup, t, s.b.sharingMemory(setup, h))
		}))
	})
	if errors.Is(err, runner.ErrClosed) && release(in.r) {
		return // the bot closed while the run waited to start: another replica runs it
	}
	if err != nil {
		s.notStarted(in.r, lang, err, setup.Redactor, "")
	}
}

// setup is how the session's runs are made: the bot's setup, with the
// long-term memory of this conversation; call it with s.mu held.
func (s *session) setup() agent.Setup {
	setup := s.b.current().setup
	setup.MemoryNamespace = s.namespace()
	return setup
}

func (s *session) newLive(in inbound, task string, setup agent.Setup) *liveRun {
	s.mu.Lock()
	defer s.mu.Unlock()
	return &liveRun{
		s: s, task: task, lang: s.lang, redact: setup.Redactor, answerTo: []chat.Replier{in.r},
		generation: s.rec.Generation, asked: map[string]asked{},
	}
}

// launch starts lr's run with start, which the manager runs on a
// goroutine of its own; the session handles other messages meanwhile.
// lr is the session's live run before the run can end, so that its end
// always finds it there.
func (s *session) launch(lr *liveRun, start func(runner.Hooks) (string, error)) error {
	// Under a burst the run waits here, its task held and the session's
	// later messages queued, while the CPU is the callbacks' (runGate).
	if !s.b.gate.enter() {
		return runner.ErrClosed
	}
	s.mu.Lock()
	s.live = lr
	s.mu.Unlock()
	// Steered from the other replicas until the run's end: a command
	// taken there meanwhile is handled there as if the run were not live.
	unsteer := s.serveSteer()
	id, err := start(runner.Hooks{Sink: lr, Done: func(res agent.Result) { s.b.gate.leave(); unsteer(); s.finished(lr, res) }})
	if err != nil {
		s.b.gate.leave()
		unsteer()
		s.mu.Lock()
		if s.live == lr {
			s.live = nil
		}
		s.mu.Unlock()
		return err
	}
	lr.mu.Lock()
	lr.id = id
	lr.mu.Unlock()
	s.mu.Lock()
	s.rec.Runs = append(s.rec.Runs, id)
	if len(s.rec.Runs) > maxRunsKept {
		s.rec.Runs = s.rec.Runs[len(s.rec.Runs)-maxRunsKept:]
	}
	s.mu.Unlock()
	lr.stopAfter(s.b.current().cfg.RunLimit())
	return nil
}

// finished records how a run ended, answers everyone who asked during it,
// and starts a new run with any instruction the run ended too soon to take.
func (s *session) finished(lr *liveRun, res agent.Result) {
	s.mu.Lock()
	lang := s.lang
	if s.live == lr {
		s.live = nil
	}
	s.mu.Unlock()
	s.save(func(r *record) {
		if lr.generation != r.Generation {
			return // a /new came meanwhile: this run belongs to the old conversation
		}
		if res.Status == event.StatusFinished {
			r.History = append(r.History, exchange{User: lr.task, Answer: s.b.scrub(res.Answer, lr.redact)})
			if n := s.b.current().cfg.HistoryTurns(); len(r.History) > n {
				r.History = r.History[len(r.History)-n:]
			}
		}
		r.LastRun, r.LastTask, r.LastStatus, r.LastError = res.RunID, lr.task, res.Status, s.b.scrub(res.Error, lr.redact)
	})

	text := lr.outcome(res, lang)
	lr.mu.Lock()
	answerTo, untaken, next := lr.answerTo, lr.pending, lr.next
	lr.mu.Unlock()
	left := append(slices.Clip(untaken), next...)
	carry := len(left) > 0 && res.Status == event.StatusFinished
	if !carry {
		// A run that stopped or failed answers everyone: a task that did not
		// finish is not followed by another on its own.
		for _, in := range left {
			answerTo = append(answerTo, in.r)
		}
	}
	for _, r := range unique(answerTo) {
		s.post(outbound{r: r, text: text, final: true, redact: lr.redact})
	}
	if carry {
		// Those told their message was added to the task hear that it is
		// a task of its own after all; the others were told so.
		for _, in := range untaken {
			s.post(outbound{r: in.r, text: i18n.In(langOf(in.msg.Text, lang), "bot.carried")})
		}
		texts := make([]string, len(left))
		rs := make([]chat.Replier, len(left))
		for i, in := range left {
			texts[i], rs[i] = in.msg.Text, in.r
		}
		// Ahead of whatever is queued: these came first.
		next := inbound{msg: chat.Message{User: s.user, Text: strings.Join(texts, "\n")}, r: replierFor(rs)}
		s.mu.Lock()
		s.inbox = append([]inbound{next}, s.inbox...)
		s.wake()
		s.mu.Unlock()
	}
}
