package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"time"

	"hermes/backend/agent"
	"hermes/backend/config"
	"hermes/backend/store"
	"hermes/backend/toolbox"
	"hermes/backend/vault"
)

// Toolkit is what a process offers its runs: the skills (built-in, the
// user's own, MCP servers), the vault's tools when a vault is set, and the
// policy that approves calls. It outlives runs: MCP servers and the vault's
// watcher keep running until Close. The vault is opened by the first call
// of a vault tool, not before: a run that never searches the notes never
// reads the index. Configure follows edits of hermes.toml: a run started
// after one gets the tools the edit names, while a run already going keeps
// those it started with until it ends.
type Toolkit struct {
	Catalog *toolbox.Catalog
	Policy  *toolbox.RulePolicy
	home    string
	watch   bool

	mu    sync.Mutex
	vault *vault.Lazy // nil when no vault is set
	// made is what the catalog and the vault were made from.
	made toolsConfig
	// gens are the catalog's registries as edits replaced them, oldest
	// first; the last is the one new runs get.
	gens []*generation
	// stopWatch ends the watch of the user's skills folder; onSkills hears
	// of each change made there (SetOnSkills).
	stopWatch context.CancelFunc
	onSkills  func()
}

// toolsConfig is the part of a config that Configure makes the catalog and
// the vault from; the policy, secrets and sandbox are set in place.
type toolsConfig struct {
	Obsidian config.Obsidian
	MCP      []config.MCPServer
	Enabled  []string
	Disabled []string
	Timeout  time.Duration
	Output   int
	Select   int
}

func toolsOf(cfg config.Config) toolsConfig {
	t := cfg.Tools
	return toolsConfig{
		Obsidian: cfg.Obsidian, MCP: t.MCP, Enabled: t.Enabled, Disabled: t.Disabled,
		Timeout: t.Timeout(0), Output: t.Output(), Select: t.Threshold(),
	}
}

// generation is one making of the catalog and the vault: the registries
// handed out to runs, how many of those runs are going, and what to stop
// once none of them, nor of an older generation, is left.
type generation struct {
	regs   map[*toolbox.Registry]bool
	runs   int
	retire []func()
}

// OpenToolkit loads the toolkit of home as cfg says, with the "always" rules
// that rules keeps (nil: none survive the process), for a process that
// ends with its task (`hermes run`, `hermes tools call`): the vault, once
// opened, is not watched, since a change made meanwhile is found by the
// next process's check of the folders.
func OpenToolkit(ctx context.Context, home string, cfg config.Config, rules toolbox.RuleStore) (*Toolkit, error) {
	return openToolkit(ctx, home, cfg, rules, false)
}

// OpenWatchedToolkit is OpenToolkit for a long-lived process (the window,
// `hermes serve`, `hermes bot`): the vault, once opened, is watched, so
// that a note edited meanwhile is searchable within about a second, and
// so is HOME/skills, so that a skill added, changed or removed there is
// what the runs started from then on get.
func OpenWatchedToolkit(ctx context.Context, home string, cfg config.Config, rules toolbox.RuleStore) (*Toolkit, error) {
	return openToolkit(ctx, home, cfg, rules, true)
}

func openToolkit(ctx context.Context, home string, cfg config.Config, rules toolbox.RuleStore, watch bool) (*Toolkit, error) {
	v, err := openVault(home, cfg.Obsidian, watch)
	if err != nil {
		return nil, err
	}
	catalog, policy := toolbox.Open(ctx, home, cfg, rules, vaultOf(v))
	k := &Toolkit{
		Catalog: catalog, Policy: policy, home: home, watch: watch, vault: v, made: toolsOf(cfg),
		gens: []*generation{{regs: map[*toolbox.Registry]bool{}}},
	}
	if watch {
		wctx, stop := context.WithCancel(context.Background())
		// A folder that cannot be watched is read again at the next edit of
		// hermes.toml instead.
		if err := catalog.WatchFolder(wctx, func() { k.refresh(wctx) }); err != nil {
			stop()
		} else {
			k.stopWatch = stop
		}
	}
	return k, nil
}

// SetOnSkills makes f hear of each change of HOME/skills a watched toolkit
// applied.
func (k *Toolkit) SetOnSkills(f func()) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.onSkills = f
}

// refresh reads HOME/skills again after a change there, as Configure does
// after an edit of hermes.toml.
func (k *Toolkit) refresh(ctx context.Context) {
	k.mu.Lock()
	if ctx.Err() != nil { // closed meanwhile
		k.mu.Unlock()
		return
	}
	_, retire := k.Catalog.Refresh(ctx)
	k.replaced(retire)
	told := k.onSkills
	k.mu.Unlock()
	if told != nil {
		told()
	}
}

// replaced starts a generation of the catalog, retiring stop with the one
// it replaces. It runs under k.mu.
func (k *Toolkit) replaced(stop ...func()) {
	cur := k.gens[len(k.gens)-1]
	cur.retire = append(cur.retire, stop...)
	k.gens = append(k.gens, &generation{regs: map[*toolbox.Registry]bool{}})
	k.sweep()
}

// Apply gives a run's setup the toolkit's tools, its policy, and the choice
// of the tools relevant to each task.
func (k *Toolkit) Apply(s *agent.Setup) {
	k.mu.Lock()
	reg := k.Catalog.Registry()
	k.gens[len(k.gens)-1].regs[reg] = true
	k.mu.Unlock()
	s.Tools, s.Policy = reg, k.Policy
	s.Select = func(runID, task string) agent.ToolSelection { return k.Catalog.Select(runID, task) }
}

// Configure applies an edit of hermes.toml to the runs started from now on:
// the [tools] policy to every call checked (the "always" rules stay), the
// secrets and the sandbox to the processes tools start, and, when they
// changed, the vault (a new one opened on its first call, the old one
// closed), the skills turned on and off, the [[tools.mcp]] servers (one
// left as it was keeps running) and the command limits. A run already
// going keeps the tools it was given: what the edit replaced is stopped
// once no such run is left. A vault that cannot be used is the error, and
// nothing but the policy, secrets and sandbox changes then.
func (k *Toolkit) Configure(ctx context.Context, cfg config.Config) error {
	k.Policy.SetConfig(toolbox.PolicyFromConfig(cfg.Tools))
	k.Catalog.SetSecrets(toolbox.SecretsOf(cfg, os.Getenv))
	k.Catalog.SetSandbox(toolbox.SandboxOf(cfg.Tools))
	want := toolsOf(cfg)
	k.mu.Lock()
	defer k.mu.Unlock()
	if reflect.DeepEqual(want, k.made) {
		return nil
	}
	v, closeOld := k.vault, func() {}
	if !reflect.DeepEqual(want.Obsidian, k.made.Obsidian) {
		nv, err := openVault(k.home, cfg.Obsidian, k.watch)
		if err != nil {
			return err
		}
		if prev := k.vault; prev != nil {
			closeOld = func() { _ = prev.Close() }
		}
		v = nv
	}
	_, retire := k.Catalog.Reconfigure(ctx, toolbox.OptionsOf(k.home, cfg, k.Catalog.Environ(), vaultOf(v)))
	k.vault, k.made = v, want
	k.replaced(retire, closeOld)
	return nil
}

// Hold keeps what the tools of a run's registry need (its MCP servers, its
// vault) running until release is called, when the run ends, though an
// edit of hermes.toml replaced them meanwhile. Tools the toolkit did not
// hand out hold nothing.
func (k *Toolkit) Hold(tools *toolbox.Registry) (release func()) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, g := range k.gens {
		if g.regs[tools] {
			g.runs++
			return sync.OnceFunc(func() {
				k.mu.Lock()
				defer k.mu.Unlock()
				g.runs--
				k.sweep()
			})
		}
	}
	return func() {}
}

// sweep stops what the oldest generations retired once none of their runs
// is left: a server or vault that a generation retired may be used by the
// runs of every older one. It runs under k.mu.
func (k *Toolkit) sweep() {
	for len(k.gens) > 1 && k.gens[0].runs == 0 {
		for _, stop := range k.gens[0].retire {
			stop()
		}
		k.gens = k.gens[1:]
	}
}

// Tools says what a new run is offered: the vault's folder ("" for none)
// and the skills, MCP servers among them, with their state.
func (k *Toolkit) Tools() (vaultDir string, skills []toolbox.Skill) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.vault != nil {
		vaultDir = k.vault.Dir()
	}
	return vaultDir, k.Catalog.Skills()
}

// Close stops the MCP servers and the vault's watcher, those edits
// replaced too, and the watch of HOME/toolbox.
func (k *Toolkit) Close() {
	if k.stopWatch != nil {
		k.stopWatch()
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	k.Catalog.Close()
	for _, g := range k.gens {
		for _, stop := range g.retire {
			stop()
		}
		g.retire = nil
	}
	if k.vault != nil {
		_ = k.vault.Close() // what it saves is its index, which the next open builds again
	}
}

// holdTools keeps the tools of a run's registry running until the run
// ends (Toolkit.Hold); it holds nothing without a toolkit.
func (m *Manager) holdTools(tools *toolbox.Registry) (release func()) {
	m.kitMu.Lock()
	kit := m.kit
	m.kitMu.Unlock()
	if kit == nil || tools == nil {
		return func() {}
	}
	return kit.Hold(tools)
}

// openVault checks the vault's folder and patterns now and opens it on the
// first call of one of its tools; nil when none is set.
func openVault(home string, o config.Obsidian, watch bool) (*vault.Lazy, error) {
	if o.Vault == "" {
		return nil, nil
	}
	dir := o.Vault
	if rest, ok := strings.CutPrefix(dir, "~/"); ok {
		if h, err := os.UserHomeDir(); err == nil {
			dir = filepath.Join(h, rest)
		}
	}
	return vault.Prepare(dir, vault.Options{Home: home, Exclude: o.Exclude, Watch: watch})
}

// vaultOf is what the vault's tools are made with (toolbox.With.Vault): nil,
// not a nil *vault.Lazy, when no vault is set.
func vaultOf(v *vault.Lazy) any {
	if v == nil {
		return nil
	}
	return v
}

// StoreRules keeps "always" rules in an open hermes.db.
func StoreRules(s *store.Store) toolbox.RuleStore {
	return storeRules{func() (*store.Store, func(), error) { return s, func() {}, nil }}
}

// storeRules reaches the database through open, which may open it for the
// call only (the Manager holds it just while runs are live).
type storeRules struct {
	open func() (*store.Store, func(), error)
}

func (r storeRules) Rules() ([]toolbox.Rule, error) {
	s, done, err := r.open()
	if err != nil {
		return nil, err
	}
	defer done()
	rules, err := s.ApprovalRules()
	if err != nil {
		return nil, err
	}
	out := make([]toolbox.Rule, len(rules))
	for i, x := range rules {
		out[i] = toolbox.Rule{ID: x.ID, Tool: x.Tool, Pattern: x.Pattern, Created: x.Created}
	}
	return out, nil
}

func (r storeRules) AddRule(tool, pattern string, now time.Time) (toolbox.Rule, error) {
	s, done, err := r.open()
	if err != nil {
		return toolbox.Rule{}, err
	}
	defer done()
	x, err := s.AddApprovalRule(tool, pattern, now)
	if err != nil {
		return toolbox.Rule{}, fmt.Errorf("remember always-allow: %w", err)
	}
	return toolbox.Rule{ID: x.ID, Tool: x.Tool, Pattern: x.Pattern, Created: x.Created}, nil
}
