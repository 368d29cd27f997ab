package runner

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"hermes/backend/agent"
	"hermes/backend/config"
	"hermes/backend/event"
	"hermes/backend/i18n"
	"hermes/backend/longterm"
	"hermes/backend/runapi"
	"hermes/backend/runlog"
	"hermes/backend/sandbox"
	"hermes/backend/store"
	"hermes/backend/toolbox"
)

// Options configure a Manager.
type Options struct {
	// Home is the Hermes home directory: config, logs, database.
	Home string
	// Getenv reads the environment for the model settings; nil is os.Getenv.
	Getenv func(string) string
	// Workspace is where a run that names none works when [agent] workspace
	// is not set either. `hermes serve` gives its current directory, as
	// `hermes run` does; the window gives none, so that a run never lands in
	// whatever directory the window was opened from.
	Workspace string
	// Toolkit opens the tools runs are offered (skills, MCP servers, the
	// vault) on the first run, with the "always" rules kept in the home's
	// database; OpenToolkit is the one for real use. Nil offers the file
	// tools only.
	Toolkit func(ctx context.Context, home string, cfg config.Config, rules toolbox.RuleStore) (*Toolkit, error)
	// Policy, when set, decides which calls need a person's approval in
	// place of the toolkit's; with neither, every call is allowed.
	Policy toolbox.Policy
	// Bus receives every event of every run; nil makes one.
	Bus *event.Bus
	// Store, when set, is the home's database, held open by the caller for
	// the manager's life; without it the manager opens the database while
	// it needs it and lets go of it when idle.
	Store *store.Store
	// ConfigPath is the hermes.toml runs are started from; "" is the
	// home's.
	ConfigPath string
	// Adjust, when set, changes every config read from ConfigPath before a
	// run gets it (`hermes run --vault`).
	Adjust func(*config.Config)
	// OnConfig, when set, hears of every edit WatchConfig sees: the new
	// config when it is good, else why it is not. The bot reconfigures
	// itself from it, so one watcher follows the file.
	OnConfig func(config.Config, error)
}

// Manager starts the runs of one process and tracks the live ones: their
// events, whether they are paused, the approval they wait for. It is safe for
// concurrent use.
type Manager struct {
	home       string
	configPath string
	adjust     func(*config.Config)
	onConfig   func(config.Config, error)
	workspace  string
	getenv     func(string) string
	policy     toolbox.Policy
	bus        *event.Bus
	store      *sharedStore

	openKit func(context.Context, string, config.Config, toolbox.RuleStore) (*Toolkit, error)
	kitMu   sync.Mutex
	kit     *Toolkit
	// undoMu lets one vault edit be undone at a time (vaultedit.go).
	undoMu sync.Mutex

	// ctx is every run's context; cancelling it cuts the runs short when
	// Shutdown's deadline passes.
	ctx    context.Context
	cancel context.CancelFunc

	mu     sync.Mutex
	live   map[string]*liveRun
	closed bool
	wg     sync.WaitGroup

	feeds   runapi.Feeds
	notices NoticeBoard
	conf    configState
	traces  traces
}

// New returns the manager of a home directory.
func New(o Options) *Manager {
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	bus := o.Bus
	if bus == nil {
		bus = event.NewBus()
	}
	configPath := o.ConfigPath
	if configPath == "" {
		configPath = config.Path(o.Home)
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Manager{
		home: o.Home, configPath: configPath, adjust: o.Adjust, onConfig: o.OnConfig, workspace: o.Workspace, getenv: getenv, policy: o.Policy, bus: bus, openKit: o.Toolkit,
		store: &sharedStore{path: StorePath(o.Home), held: o.Store != nil, store: o.Store},
		ctx:   ctx, cancel: cancel,
		live: map[string]*liveRun{},
	}
}

// Hooks let the code that starts a run in this process follow it.
type Hooks struct {
	// Sink gets every event of the run in seq order, after the manager has
	// taken it; like any sink it must not block.
	Sink event.Sink
	// Done gets the run's result when its leg ends, before watchers hear
	// that it did and before Shutdown returns.
	Done func(agent.Result)
}

// Bus carries every event of every run this manager starts.
func (m *Manager) Bus() *event.Bus { return m.bus }

// Start checks the model endpoint and starts a run of req; it returns the
// run's id once the run is under way.
func (m *Manager) Start(ctx context.Context, req StartRequest) (string, error) {
	task := strings.TrimSpace(req.Task)
	if task == "" {
		return "", i18n.Wrap(ErrNoTask, "runner.no_task")
	}
	cfg, err := m.config()
	if err != nil {
		return "", err
	}
	ws, err := m.resolveWorkspace(req.Workspace, cfg)
	if err != nil {
		return "", err
	}
	if req.Strategy != "" {
		// build validates it with the rest of the config.
		cfg.Agent.Strategy = req.Strategy
	}
	switch sandbox.Mode(req.Sandbox) {
	case "", sandbox.Workspace, sandbox.ReadOnly, sandbox.Off:
	default:
		return "", i18n.Wrap(ErrInvalidSandbox, "runner.bad_sandbox", req.Sandbox)
	}
	memory, err := memoryUse(req.Memory)
	if err != nil {
		return "", err
	}
	setup, err := m.build(ctx, cfg, Overrides{Model: req.Model, BaseURL: req.BaseURL, MaxIterations: req.MaxIterations})
	if err != nil {
		return "", err
	}
	return m.StartSetup(setup, agent.Task{Text: task, Instructions: req.Instructions, Workspace: ws, Sandbox: sandbox.Mode(req.Sandbox), Memory: memory}, Hooks{})
}

// StartSetup starts a run of t with a setup the caller built (the bot
// builds one for all its runs: unattended, its own policy); the manager adds
// the store and the bus, tracks the run like any other and returns its id
// once it is under way.
func (m *Manager) StartSetup(setup agent.Setup, t agent.Task, h Hooks) (string, error) {
	return m.launch(setup, "", func(s agent.Setup, sinks []event.Sink) (*agent.Run, error) {
		return agent.NewRun(s, t, sinks...)
	}, nil, h)
}

// Resume takes up a stopped, failed or crashed run from its last checkpoint,
// with the overrides applied (a higher max_iterations, another model). A
// model or endpoint not overridden is the one the run recorded, not the
// configured one; run.resumed records a switch.
func (m *Manager) Resume(ctx context.Context, id string, o Overrides) error {
	// Checked before the model is: a run that cannot be resumed says so
	// without a call to the endpoint.
	_, events, err := m.resumable(id)
	if err != nil {
		return err
	}
	cfg, err := m.config()
	if err != nil {
		return err
	}
	if o, err = keepModel(cfg.Model, m.getenv, id, events, o); err != nil {
		return err
	}
	setup, err := m.build(ctx, cfg, o)
	if err != nil {
		return err
	}
	return m.ResumeSetup(setup, id, Hooks{})
}

// resumable returns the log of run id and its events when it can be
// resumed: known, not the sample, not live, not finished.
func (m *Manager) resumable(id string) (string, []event.Event, error) {
	if m.isSample(id) {
		return "", nil, i18n.Wrap(ErrSample, "runner.sample")
	}
	path, err := runlog.Find(m.home, id)
	if err != nil {
		return "", nil, err
	}
	if m.liveRun(id) != nil {
		return "", nil, i18n.Wrap(ErrLive, "runner.live", id)
	}
	events, err := runlog.ReadFile(path)
	if err != nil {
		return "", nil, err
	}
	if runlog.Summarize(events).Status == event.StatusFinished {
		return "", nil, i18n.Wrap(ErrFinished, "runner.finished", id)
	}
	return path, events, nil
}

// ResumeSetup is Resume with a setup the caller built, as StartSetup is
// Start.
func (m *Manager) ResumeSetup(setup agent.Setup, id string, h Hooks) error {
	path, _, err := m.resumable(id)
	if err != nil {
		return err
	}
	_, err = m.launch(setup, id, func(s agent.Setup, sinks []event.Sink) (*agent.Run, error) {
		return agent.ResumeRun(s, id, sinks...)
	}, func(l *liveRun, run *agent.Run) error {
		// ResumeRun cut the log back to the checkpoint: what is left is the
		// part of the run that stands, and watchers get it first.
		kept, err := runlog.ReadFile(run.LogPath())
		if err != nil {
			return err
		}
		l.load(kept)
		l.title = readMeta(path).Title
		return nil
	}, h)
	return err
}

// launch creates a run with create and runs it on a goroutine. id, when
// given, is a run that must not be live already; prepare readies the run's
// liveRun before its first event.
func (m *Manager) launch(setup agent.Setup, id string,
	create func(agent.Setup, []event.Sink) (*agent.Run, error),
	prepare func(*liveRun, *agent.Run) error,
	h Hooks,
) (string, error) {
	store, err := m.store.acquire()
	if err != nil {
		return "", err
	}
	setup.Store, setup.LongTerm, setup.Bus = store, longterm.New(store), m.bus
	l := newLiveRun(m.publish)
	// The manager's record of the run takes each event before the
	// starter's sink does.
	sinks := []event.Sink{l}
	if h.Sink != nil {
		sinks = append(sinks, h.Sink)
	}
	if s := m.traceSink(setup); s != nil {
		sinks = append(sinks, s)
	}

	// Its tools stay running until it ends, whatever edits of hermes.toml
	// replace meanwhile.
	release := m.holdTools(setup.Tools)
	// Creating and registering under one lock keeps two resumes of one run
	// from both taking it up, and a run from starting after Shutdown.
	m.mu.Lock()
	run, err := m.create(l, sinks, setup, id, create, prepare)
	if err != nil {
		m.mu.Unlock()
		m.store.release()
		release()
		return "", err
	}
	l.ctx, l.cancel = context.WithCancel(m.ctx)
	m.live[l.id] = l
	m.wg.Add(1)
	m.mu.Unlock()

	go m.execute(l, run, h.Done, release)
	return l.id, nil
}

// create runs under m.mu.
func (m *Manager) create(l *liveRun, sinks []event.Sink, setup agent.Setup, id string,
	create func(agent.Setup, []event.Sink) (*agent.Run, error),
	prepare func(*liveRun, *agent.Run) error,
) (*agent.Run, error) {
	if m.closed {
		return nil, i18n.Wrap(ErrClosed, "runner.closed")
	}
	if _, live := m.live[id]; live {
		return nil, i18n.Wrap(ErrLive, "runner.live", id)
	}
	run, err := create(setup, sinks)
	if err != nil {
		return nil, err
	}
	l.id, l.path, l.controls, l.run = run.ID(), run.LogPath(), run.Controls(), run
	if prepare != nil {
		if err := prepare(l, run); err != nil {
			return nil, err
		}
	}
	return run, nil
}

func (m *Manager) execute(l *liveRun, run *agent.Run, done func(agent.Result), release func()) {
	defer m.wg.Done()
	defer l.cancel()
	res := run.Execute(l.ctx)
	release()
	// The log is closed and the database let go before anyone hears that
	// the leg is over, so what they do next finds both free.
	m.store.release()
	m.mu.Lock()
	delete(m.live, l.id)
	m.mu.Unlock()
	if done != nil {
		done(res)
	}
	m.publish(l.end())
}

// Control queues a control for a live run; it takes effect at the run's
// next safe point, but for ControlCancel, which takes effect at once.
// Approvals go through Approve.
func (m *Manager) Control(id string, c agent.Control) error {
	switch c.Kind {
	case ControlCancel:
		l, err := m.mustBeLive(id)
		if err != nil {
			return err
		}
		l.cancel()
		return nil
	case agent.ControlPause, agent.ControlResume, agent.ControlStop:
	case agent.ControlInject:
		if strings.TrimSpace(c.Text) == "" {
			return i18n.Wrap(ErrBadControl, "runner.control.no_text")
		}
	case agent.ControlEdit:
		if strings.TrimSpace(c.Task) == "" {
			return i18n.Wrap(ErrNoTask, "runner.control.no_task")
		}
	case agent.ControlEditCall:
		if c.CallID == "" || c.Arguments == "" {
			return i18n.Wrap(ErrBadControl, "runner.control.no_call")
		}
	case agent.ControlPin:
		if strings.TrimSpace(c.Text) == "" && c.Message == nil {
			return i18n.Wrap(ErrBadControl, "runner.control.no_pin")
		}
	case agent.ControlAnswer:
		// Anything is an answer: no question id answers the open question,
		// and an empty text is "I don't know", which tells the model to stop
		// guessing.
	default:
		return i18n.Wrap(ErrBadControl, "runner.control.kind", string(c.Kind))
	}
	l, err := m.mustBeLive(id)
	if err != nil {
		return err
	}
	l.controls.Send(c)
	return nil
}

// Approve answers the approval a live run waits for. The first answer wins;
// one that comes after it is ErrNoApproval.
func (m *Manager) Approve(id, approvalID string, a Answer) error {
	switch a.Decision {
	case event.ApproveOnce, event.ApproveRun, event.ApproveAlways, event.ApproveDeny:
	default:
		return i18n.Wrap(ErrBadDecision, "runner.bad_decision", a.Decision)
	}
	l, err := m.mustBeLive(id)
	if err != nil {
		return err
	}
	if !l.takeAnswer(approvalID) {
		return i18n.Wrap(ErrNoApproval, "runner.no_approval", approvalID)
	}
	l.controls.Send(agent.Control{
		Kind: agent.ControlApprove, ApprovalID: approvalID, Decision: a.Decision, Reason: a.Reason, Pattern: a.Pattern,
	})
	return nil
}

// Live returns the summaries of the live runs, newest first.
func (m *Manager) Live() []Summary {
	m.mu.Lock()
	runs := make([]*liveRun, 0, len(m.live))
	for _, l := range m.live {
		runs = append(runs, l)
	}
	m.mu.Unlock()
	out := make([]Summary, len(runs))
	for i, l := range runs {
		out[i] = l.summary()
	}
	slices.SortFunc(out, func(a, b Summary) int {
		if c := b.Started.Compare(a.Started); c != 0 {
			return c
		}
		return strings.Compare(b.RunID, a.RunID)
	})
	return out
}

// Shutdown asks every live run to stop at its next safe point and waits
// for them (checkpoints are saved). When ctx ends first, the runs are
// cancelled at once (the unfinished iteration is done again on resume) and
// waited for, and ctx's error is returned. No run starts afterwards.
func (m *Manager) Shutdown(ctx context.Context) error {
	defer m.closeToolkit()
	// After the runs: their last spans are sent.
	defer m.traces.close()
	m.mu.Lock()
	m.closed = true
	for _, l := range m.live {
		l.controls.Stop()
	}
	m.mu.Unlock()
	done := make(chan struct{})
	go func() {
		m.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		m.cancel()
		return nil
	case <-ctx.Done():
		select {
		case <-done: // both were ready: the runs did stop in time
			m.cancel()
			return nil
		default:
		}
		// Tools are given their context and their own timeouts, so the
		// runs end soon after this.
		m.cancel()
		<-done
		return ctx.Err()
	}
}

// build is Build with the manager's toolkit and policy applied.
func (m *Manager) build(ctx context.Context, cfg config.Config, o Overrides) (agent.Setup, error) {
	setup, err := BuildWith(ctx, m.home, cfg, m.getenv, o, func() (*Toolkit, error) { return m.Toolkit(ctx, cfg) })
	if err != nil {
		return setup, err
	}
	if m.policy != nil {
		setup.Policy = m.policy
	}
	return setup, nil
}

// Toolkit returns the tools this manager's runs are offered, opened as cfg
// says on first use and closed by Shutdown; nil when the manager was given
// no Toolkit. A caller that builds its own setups (StartSetup) offers the
// same tools through it.
func (m *Manager) Toolkit(ctx context.Context, cfg config.Config) (*Toolkit, error) {
	if m.openKit == nil {
		return nil, nil
	}
	m.kitMu.Lock()
	defer m.kitMu.Unlock()
	if m.kit == nil {
		rules := storeRules{open: func() (*store.Store, func(), error) {
			s, err := m.store.acquire()
			return s, m.store.release, err
		}}
		kit, err := m.openKit(ctx, m.home, cfg, rules)
		if err != nil {
			return nil, err
		}
		kit.SetOnSkills(m.skillsChanged)
		m.kit = kit
	}
	return m.kit, nil
}

// closeToolkit stops the toolkit's MCP servers and watchers.
func (m *Manager) closeToolkit() {
	m.kitMu.Lock()
	defer m.kitMu.Unlock()
	if m.kit != nil {
		m.kit.Close()
		m.kit = nil
	}
}

func (m *Manager) liveRun(id string) *liveRun {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.live[id]
}

// mustBeLive returns the live run id, or why it is not live: unknown
// (runlog.ErrRunNotFound) or not running here (ErrNotLive).
func (m *Manager) mustBeLive(id string) (*liveRun, error) {
	if l := m.liveRun(id); l != nil {
		return l, nil
	}
	if !m.isSample(id) {
		if _, err := runlog.Find(m.home, id); err != nil {
			return nil, err
		}
	}
	return nil, i18n.Wrap(ErrNotLive, "runner.not_live", id)
}

// resolveWorkspace picks a new run's workspace: the one asked for, else
// [agent] workspace, else the manager's default. A leading ~ is the user's
// home directory, as in a shell.
func (m *Manager) resolveWorkspace(asked string, cfg config.Config) (string, error) {
	dir := strings.TrimSpace(asked)
	if dir == "" {
		dir = cfg.Agent.Workspace
	}
	if dir == "" {
		dir = m.workspace
	}
	if dir == "" {
		return "", i18n.Wrap(ErrBadWorkspace, "runner.no_workspace")
	}
	if rest, ok := strings.CutPrefix(dir, "~"); ok && (rest == "" || os.IsPathSeparator(rest[0])) {
		if user := m.getenv("HOME"); user != "" {
			dir = filepath.Join(user, rest)
		}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", i18n.Wrap(ErrBadWorkspace, "runner.bad_workspace", dir)
	}
	if info, err := os.Stat(abs); err != nil || !info.IsDir() {
		return "", i18n.Wrap(ErrBadWorkspace, "runner.bad_workspace", abs)
	}
	return abs, nil
}
