// Package bot is `hermes bot`: a webhook server that lets people give tasks
// to the agent from a company chat. A chat platform (chat.Platform, each in
// its own package: WeCom's self-built application and intelligent bot in
// backend/wecom, Feishu's app in backend/feishu, the generic JSON webhook
// in backend/webhook) turns its callbacks into messages for the bot, its
// chat.Inbox, and carries the replies back; each user has a session of
// their own that runs one task at a time.
//
// A callback is answered as soon as it is checked and queued; the run goes
// on afterwards and its answer is sent when it ends. Runs are started
// through a runner.Manager, so a window attached to the bot's process sees
// and steers them as any run. Nothing about the
// secrets (the callback token, the AES key, the corp secret, access tokens)
// is logged or put in an event, a reply or an error; every text sent to a
// chat passes through one place, session.send (a draft through
// liveRun.showDraft), where the secrets of the run, of the setup and of
// [bot] are replaced.
package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"
	"sync"
	"time"

	"hermes/backend/agent"
	"hermes/backend/chat"
	"hermes/backend/config"
	"hermes/backend/i18n"
	"hermes/backend/runlog"
	"hermes/backend/runner"
	"hermes/backend/store"
	"hermes/backend/toolbox"
)

// Options configure a Bot.
type Options struct {
	// Setup is how runs are made; the bot makes them unattended and wraps
	// their policy so that asked calls are denied unless allowed by
	// Config.AllowTools.
	Setup agent.Setup
	// Runs starts and tracks the runs, beside those a window or `hermes
	// serve` attached to this process starts; it gives them the store and
	// the bus. The bot's Shutdown shuts it down.
	Runs *runner.Manager
	// Store keeps the message ids seen, the user-id cache and the sessions:
	// the home's database, which Runs was given too.
	Store *store.Store
	// Config is the [bot] section with its environment references resolved.
	Config config.Bot
	// HTTP is the client for the platform's API and replies.
	HTTP *http.Client
	// APIBackoff overrides the platform API's backoff between retries
	// (tests).
	APIBackoff func(n int) time.Duration
	Log        *slog.Logger
	Now        func() time.Time

	// Shared, when set, makes the bot one replica of several that share
	// their state ([cluster]); nil keeps it all in Store.
	Shared *Shared
}

// seenFor is how long message ids are remembered; platforms resend within
// minutes.
const seenFor = 24 * time.Hour

// Bot holds every user's session and the adapter that feeds them.
type Bot struct {
	liveMu sync.RWMutex
	live   live // read through current()

	store    *store.Store
	secrets  *runlog.Redactor // [bot]'s own, for every reply; see scrub
	log      *slog.Logger
	now      func() time.Time
	seen     *dedup
	platform chat.Adapter // [bot] platform's
	wsRoot   string
	runs     *runner.Manager

	sessionStore SessionStore
	shared       *Shared // nil unless a replica
	stopTasks    func()  // stops taking tasks from Shared.Tasks
	copies       *copies // of the runs of tasks, for Shared.Runs; nil without

	// sendCtx is cancelled when Shutdown's grace is over, to drop the
	// replies still queued.
	sendCtx   context.Context
	cancelOut context.CancelFunc

	starting sync.Mutex // held while a run starts; see startOne
	gate     *runGate

	mu       sync.Mutex
	sessions map[string]*session
	closed   bool
	pruned   time.Time
	workers  sync.WaitGroup // sessions handling messages
	sends    sync.WaitGroup
}

// New builds the bot of cfg.Platform with its adapter (chat.Lookup: the
// platforms backend/platforms links).
func New(o Options) (*Bot, error) {
	if o.Runs == nil || o.Store == nil || o.Setup.Model == nil || o.Setup.Tools == nil {
		return nil, ErrSetup
	}
	if err := o.Config.Ready(); err != nil {
		return nil, err
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.HTTP == nil {
		// Replies to many users go out at once: connections are kept for
		// reuse, not opened (a TLS handshake each) and dropped.
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = max(o.Config.APIRate(), 16)
		o.HTTP = &http.Client{Timeout: 15 * time.Second, Transport: t}
	}
	b := &Bot{
		live: live{cfg: o.Config, setup: o.Setup}, store: o.Store, runs: o.Runs, log: o.Log, now: o.Now,
		sessions: make(map[string]*session),
		secrets:  runlog.NewRedactor(botSecrets(o.Config)...),
		wsRoot:   o.Config.Workspace,
		gate:     newRunGate(),
	}
	var err error
	if b.seen, err = newDedup(o.Store, o.Now, o.Log); err != nil {
		return nil, err
	}
	b.sessionStore = storeSessions{b}
	if b.wsRoot == "" {
		b.wsRoot = filepath.Join(o.Setup.Home, "bot", "workspaces")
	}
	b.live.setup = unattended(o.Setup, o.Config.AllowTools, b.wsRoot)
	b.sendCtx, b.cancelOut = context.WithCancel(context.Background())

	if b.platform, err = b.newPlatform(o); err != nil {
		return nil, err
	}
	if o.Shared != nil {
		if err := b.share(o.Shared); err != nil {
			return nil, err
		}
	}
	b.prune()
	return b, nil
}

// botSecrets are the secrets of a [bot] section, its platform's own keys'
// too, as written there (its environment references resolved).
func botSecrets(c config.Bot) []string {
	return config.Config{Bot: c}.Secrets(func(string) string { return "" })
}

// scrub is text as it may leave the process: the secrets that run (the
// redactor of the run it is about, nil for none), the bot's current setup
// and [bot] know are replaced by [REDACTED]. A run's redactor may lack
// [bot]'s secrets, and a setup made since may lack the run's.
func (b *Bot) scrub(text string, run *runlog.Redactor) string {
	text = run.String(text)
	text = b.current().setup.Redactor.String(text)
	return b.secrets.String(text)
}

// unattended is s as the bot's runs use it: no one is there to approve a
// call, so asked calls are denied unless allowed; their commands always run
// in the sandbox, where the chat users' workspaces under wsRoot, each but
// the run's own, are hidden.
func unattended(s agent.Setup, allow []string, wsRoot string) agent.Setup {
	s.Unattended = true
	s.Policy = botPolicy{inner: s.Policy, allow: allow}
	s.Sandbox = toolbox.RunSandbox{Always: true, Hidden: []string{wsRoot}}
	return s
}

// Platform is the adapter of the platform the bot serves ([bot]
// platform): a chat.Checker checks its credentials before the bot takes a
// callback.
func (b *Bot) Platform() chat.Adapter { return b.platform }

// Handler serves the callback at the configured path, and GET /healthz.
func (b *Bot) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle(b.current().cfg.CallbackPath(), b.platform)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Write([]byte("ok\n"))
	})
	return mux
}

// Deliver queues a message for its sender's session and returns at once. A
// message whose id was seen before (a platform's resend) is dropped and
// reports false.
func (b *Bot) Deliver(platform string, m chat.Message, r chat.Replier) (bool, error) {
	if b.isClosed() {
		return false, ErrClosed
	}
	if b.shared != nil {
		return b.queue(platform, m, r)
	}
	if m.ID != "" && !b.seen.first(platform+"/"+m.ID) {
		return false, nil
	}
	b.session(platform, m.User).enqueue(inbound{msg: m, r: r})
	return true, nil
}

func (b *Bot) session(platform, user string) *session {
	key := platform + "/" + user
	b.mu.Lock()
	defer b.mu.Unlock()
	s, ok := b.sessions[key]
	if !ok {
		s = &session{b: b, key: key, platform: platform, user: user, lang: i18n.Current()}
		b.sessions[key] = s
	}
	if now := b.now(); now.Sub(b.pruned) > time.Hour {
		b.pruned = now
		go b.prune()
	}
	return s
}

// prune forgets message ids older than seenFor.
func (b *Bot) prune() {
	if err := b.seen.forget(b.now().Add(-seenFor)); err != nil {
		b.log.Warn("forget old message ids", "err", err)
	}
}

// startOne runs f, which starts a run, while no other run of the bot's is
// starting. A burst of messages starts as many runs; their file and
// database work, one at a time, leaves the other cores to the callbacks
// still waiting to be answered.
func (b *Bot) startOne(f func()) {
	b.starting.Lock()
	defer b.starting.Unlock()
	f()
}

func (b *Bot) isClosed() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.closed
}

// Shutdown stops taking messages (those taken and not yet started are
// answered that the bot is restarting), asks every running task to stop at
// its next safe point (saving a checkpoint) and waits for them and for the
// replies still queued, until ctx is done; then it cuts them short. Whoever
// serves Handler stops taking callbacks first (host.Service, whose Close
// calls it). The runs a window started in this process stop with the
// bot's.
func (b *Bot) Shutdown(ctx context.Context) error {
	b.mu.Lock()
	b.closed = true
	b.mu.Unlock()
	b.gate.close()
	if b.stopTasks != nil {
		b.stopTasks() // the tasks still queued are for the other replicas
	}
	// Once the workers are idle no run of the bot's starts any more.
	b.workers.Wait()
	var errs []error
	// Every run's end has been handled (its answer queued) once this returns.
	if err := b.runs.Shutdown(ctx); err != nil {
		errs = append(errs, fmt.Errorf("runs still going at shutdown were cancelled: %w", err))
	}
	b.copies.wait()
	// Instructions a run ended too soon to take were queued again; they are
	// answered that the bot is restarting.
	b.workers.Wait()
	if err := waitFor(ctx, &b.sends); err != nil {
		b.cancelOut()
		b.sends.Wait()
		errs = append(errs, fmt.Errorf("replies still queued at shutdown were dropped: %w", err))
	}
	b.seen.wait()
	b.cancelOut()
	return errors.Join(errs...)
}

func waitFor(ctx context.Context, wg *sync.WaitGroup) error {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// notice answers a message the bot cannot act on (a picture, say) with the
// message key, once per message id, without touching a running task.
func (b *Bot) notice(platform string, m chat.Message, r chat.Replier, key string) error {
	if b.isClosed() {
		return ErrClosed
	}
	if m.ID != "" {
		if first, err := b.first(platform + "/" + m.ID); err != nil || !first {
			return err
		}
	}
	s := b.session(platform, m.User)
	s.mu.Lock()
	lang := s.lang
	s.mu.Unlock()
	s.say(r, lang, key)
	return nil
}
