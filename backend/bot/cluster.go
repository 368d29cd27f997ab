package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	"hermes/backend/chat"
	"hermes/backend/chatapi"
	"hermes/backend/cluster"
	"hermes/backend/i18n"
)

func init() { i18n.Register(sharedMessages) }

func sharedMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"bot.cluster_platform": {
			EN: `[bot] platform %q cannot run as a replica here: its replies are not shared with the other replicas; set [cluster] nats_url = "" to run it as one process`,
			ZH: `[bot] 平台 %q 在此无法以副本运行：它的回复未与其他副本共享；请把 [cluster] nats_url 设为 "" 以单进程运行`,
		},
	}
}

// Shared is what the bot's replicas share when several serve one callback
// URL ([cluster]; backend/cluster fills it); a Bot without it keeps all of
// it in its home's hermes.db. A platform runs as replicas when its replies
// can go out from any replica (chat.Replicated).
type Shared struct {
	Seen     Dedupe
	Sessions SessionStore
	Tasks    TaskQueue
	// Runs keeps a copy of each run of a task, so that the replica taking
	// the task over resumes the run; nil: it starts the task again.
	Runs RunCopies
	// Memory keeps the users' long-term memories for every replica.
	Memory SharedMemory
	// Steer carries a user's /stop, /pause, /resume and /pin to the
	// replica where the user's run is live.
	Steer Steering
	// Platform is what the platform's API client and callbacks share: its
	// access token, its rates, its lookups and its streamed replies.
	Platform chat.Shared
}

// SharedBy is what a replica shares with the others through cl: the
// message ids seen, the sessions, the task queue, the copies of runs, the
// users' memories, the steering of live runs, and what its platform shares.
func SharedBy(cl *cluster.Cluster) *Shared {
	return &Shared{
		Seen: cl.Seen(), Sessions: cl.Sessions(), Tasks: cl.Tasks(), Runs: cl.Runs(),
		Memory: cl.Memories(), Steer: cl.Steering(), Platform: cl.Platform(),
	}
}

// Dedupe remembers the message ids seen by every replica.
type Dedupe interface {
	// First reports whether key arrives for the first time, and records
	// it; of the replicas asked about one key, one is told true. An error
	// refuses the callback, so the platform resends it.
	First(key string) (bool, error)
}

// SessionStore keeps the sessions' records.
type SessionStore interface {
	// Load returns the record stored under key, nil when there is none.
	Load(key string) ([]byte, error)
	// Update stores what change makes of the record stored under key:
	// stored is that record (nil: none) where another replica may have
	// changed it since; nil too where the session's own copy is current.
	Update(key string, change func(stored []byte) ([]byte, error)) error
}

// TaskQueue carries each message from the replica whose callback took it
// to the one replica that runs it.
type TaskQueue interface {
	// Publish queues task, and reports whether id (the message's) was
	// not queued before: a second publish of it is dropped, reporting
	// false. An error may have queued it.
	Publish(ctx context.Context, id string, task []byte) (bool, error)
	// Consume hands take each task this replica takes. It holds the task
	// until settle(true), called just before the answer goes out (an
	// error: another replica has it now and answers), or settle(false),
	// which hands it back.
	Consume(take func(task []byte, settle func(done bool) error)) (stop func(), err error)
}

// checkedQueue is a TaskQueue whose Take hands take, beside settle, check:
// it makes sure the task is still this replica's and keeps it so; an
// error: another replica has it now, and no settle is needed.
type checkedQueue interface {
	Take(take func(task []byte, check func() error, settle func(done bool) error)) (stop func(), err error)
}

// storeSessions is SessionStore on hermes.db: one process, whose sessions'
// copies are always current.
type storeSessions struct{ b *Bot }

func (s storeSessions) Load(key string) ([]byte, error) { return s.b.store.BotSession(key) }

func (s storeSessions) Update(key string, change func([]byte) ([]byte, error)) error {
	data, err := change(nil)
	if err != nil {
		return err
	}
	return s.b.store.SaveBotSession(key, data)
}

// task is a message as it travels through the TaskQueue.
type task struct {
	Platform string `json:"platform"`
	ID       string `json:"id,omitempty"`
	User     string `json:"user"`
	Text     string `json:"text"`
	// To is where the answer goes, for platforms that answer each message
	// where it came from (Feishu's message, WeCom's stream).
	To string `json:"to,omitempty"`
}

// share makes the bot a replica: it checks that the platform's replies can
// go out from any replica and starts taking tasks.
func (b *Bot) share(sh *Shared) error {
	if _, ok := b.platform.(chat.Replicated); !ok {
		name := b.current().cfg.PlatformName()
		return i18n.Wrap(ErrClusterPlatform, "bot.cluster_platform", name)
	}
	b.shared, b.sessionStore = sh, sh.Sessions
	if sh.Runs != nil {
		b.copies = newCopies(b, sh.Runs)
	}
	var stop func()
	var err error
	if q, ok := sh.Tasks.(checkedQueue); ok {
		stop, err = q.Take(b.take)
	} else {
		stop, err = sh.Tasks.Consume(func(task []byte, settle func(bool) error) {
			b.take(task, func() error { return nil }, settle)
		})
	}
	if err != nil {
		return err
	}
	b.stopTasks = stop
	return nil
}

// first reports whether a message id arrives for the first time, in this
// process or, for a replica, in the cluster.
func (b *Bot) first(key string) (bool, error) {
	if b.shared != nil {
		return b.shared.Seen.First(key)
	}
	return b.seen.first(key), nil
}

// queue hands a message to the cluster's task queue, once per message id:
// the publish is the one write that takes the id, so a replica killed
// mid-callback leaves the message either queued or not taken at all.
func (b *Bot) queue(platform string, m chat.Message, r chat.Replier) (bool, error) {
	id := ""
	if m.ID != "" {
		id = platform + "/" + m.ID
	}
	data, err := json.Marshal(task{Platform: platform, ID: m.ID, User: m.User, Text: m.Text, To: addressOf(r)})
	if err != nil {
		return false, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// An error refuses the callback: the platform's resend is taken, or
	// finds the message queued.
	return b.shared.Tasks.Publish(ctx, id, data)
}

// take starts a task of the queue in its user's session here.
func (b *Bot) take(data []byte, check func() error, settle func(bool) error) {
	var t task
	if err := json.Unmarshal(data, &t); err != nil {
		b.log.Error("a queued task no replica can read is dropped", "err", err)
		_ = settle(true) // or it comes back, and is dropped again
		return
	}
	r := b.replierOf(t.Platform, t.User, t.To)
	if r == nil || b.isClosed() {
		_ = settle(false) // another replica's; or it comes back after the ack wait
		return
	}
	m := chat.Message{ID: t.ID, User: t.User, Text: t.Text}
	b.session(t.Platform, t.User).enqueue(inbound{msg: m, r: &leased{b: b, inner: r, tasks: []lease{{check, settle}}}})
}

// lease is a task of the queue this replica holds.
type lease struct {
	check  func() error
	settle func(bool) error
}

// leased replies to the sender of messages this replica took from the
// queue. Its final reply answers them all, so it goes out only if every
// one is still this replica's: all are checked, then all acknowledged,
// just before the send (once the rate limits give it its place, where
// the inner replier can say so), so that a replica killed while its answer
// waits leaves its tasks to another. If one was taken over, none is
// answered here: the others are handed back, and each is answered once,
// by the replica that runs it.
type leased struct {
	b     *Bot
	inner chat.Replier
	tasks []lease

	once sync.Once
	err  error
}

// commitsOnSend is a replier that calls its context's commit
// (chatapi.WithCommit) when the message's turn has come.
type commitsOnSend interface{ CommitsOnSend() }

func (l *leased) Reply(ctx context.Context, text string, final bool) error {
	if !final {
		return l.inner.Reply(ctx, text, final)
	}
	if _, ok := l.inner.(commitsOnSend); ok {
		ctx = chatapi.WithCommit(ctx, l.commit)
	} else if err := l.commit(); err != nil {
		return err
	}
	err := l.inner.Reply(ctx, text, final)
	if err == nil {
		_ = l.commit() // a reply with nothing to send: done all the same
		return nil
	}
	handedBack := false
	l.once.Do(func() {
		// Not sent before its turn came (a shutdown, NATS gone): another
		// replica answers.
		handedBack, l.err = true, ErrTaskTaken
		for _, t := range l.tasks {
			_ = t.settle(false) // or it comes back after the ack wait
		}
	})
	if handedBack {
		return fmt.Errorf("%w: %w", ErrTaskTaken, err)
	}
	return err
}

// commit checks every task of the reply, then acknowledges them all, once.
// One task needs no check: its acknowledgement is refused if it was lost.
func (l *leased) commit() error {
	l.once.Do(func() {
		if len(l.tasks) == 1 {
			if l.tasks[0].settle(true) != nil {
				l.err = ErrTaskTaken
			}
			return
		}
		lost := -1
		for i, t := range l.tasks {
			if t.check() != nil {
				lost = i
				break
			}
		}
		if lost >= 0 {
			for i, t := range l.tasks {
				if i != lost {
					_ = t.settle(false) // or it comes back after the ack wait
				}
			}
			l.b.log.Info("answer not sent: one of its messages was taken over by another replica; the others are handed back, each to be answered once", "messages", len(l.tasks))
			l.err = ErrTaskTaken
			return
		}
		for _, t := range l.tasks {
			// Checked a moment ago: a failure here is a takeover within
			// that moment, answered by both.
			if err := t.settle(true); err != nil {
				l.b.log.Error("a message taken over as its answer was sent", "err", err)
			}
		}
	})
	return l.err
}

// Draft shows the model's text where the inner replier can.
func (l *leased) Draft(text string) {
	if d, ok := l.inner.(chat.Drafter); ok {
		d.Draft(text)
	}
}

// release hands the messages of r back to the queue, for a replica that
// is not shutting down, and reports whether r was one to hand back.
func release(r chat.Replier) bool {
	l, ok := r.(*leased)
	if ok {
		for _, t := range l.tasks {
			_ = t.settle(false) // or it comes back after the ack wait
		}
	}
	return ok
}

// sameSender reports whether a and b reply to the same sender.
func sameSender(a, b chat.Replier) bool {
	la, aok := a.(*leased)
	lb, bok := b.(*leased)
	switch {
	case aok && bok:
		return la.inner == lb.inner
	case aok || bok:
		return false
	}
	return a == b
}

// merge is one replier for a and b, sameSender: leased messages are
// acknowledged together.
func merge(a, b chat.Replier) chat.Replier {
	la, aok := a.(*leased)
	lb, bok := b.(*leased)
	if !aok || !bok || la == lb {
		return a
	}
	return &leased{b: la.b, inner: la.inner, tasks: slices.Concat(la.tasks, lb.tasks)}
}

// mergeRecord is the record stored, with the run ids of mine it lacks
// (launch lists a run before the record is saved).
func mergeRecord(stored []byte, mine record) record {
	var rec record
	if json.Unmarshal(stored, &rec) != nil {
		return mine
	}
	for _, id := range mine.Runs {
		if !slices.Contains(rec.Runs, id) {
			rec.Runs = append(rec.Runs, id)
		}
	}
	if len(rec.Runs) > maxRunsKept {
		rec.Runs = rec.Runs[len(rec.Runs)-maxRunsKept:]
	}
	return rec
}
