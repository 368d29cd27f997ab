package toolbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"hermes/backend/i18n"
)

// Skill states.
const (
	StatusLoaded      = "loaded"
	StatusDisabled    = "disabled"    // turned off in [tools]
	StatusUnavailable = "unavailable" // not for this platform, or its tools are not set up
	StatusBroken      = "broken"      // its manifest or server has a mistake
)

// SourceBuiltin is the Source of a skill compiled into Hermes.
const SourceBuiltin = "builtin"

// Skill is one skill as loaded.
type Skill struct {
	Name        string
	Description string
	// Source is SourceBuiltin, "hermes.toml" for [[tools.mcp]], or the
	// folder of a user's skill.
	Source string
	Runner string
	Status string
	// Problem says why the skill is not loaded, or which of its tools were
	// left out; it is a message for a person.
	Problem error
	// Tools are the names of its registered tools.
	Tools []string
	// Instructions is its SKILL.md body, given to the model by load_skill.
	Instructions string
	// Offer is when a run is offered its tools: OfferAlways or
	// OfferRelevant, with the Keywords that make it relevant.
	Offer    string
	Keywords []string
	// Asks are what its processes may do beyond the sandbox.
	Asks Asks
}

// NamedMCP is an MCP server from [[tools.mcp]].
type NamedMCP struct {
	Name string
	Spec MCPSpec
	// Asks are its network and writable folders.
	Asks Asks
}

// Options say where skills come from and how they run.
type Options struct {
	// Builtin offers the built-in skills (builtinSkills).
	Builtin bool
	// UserDir is HOME/skills; "" means none.
	UserDir string
	// GoTools implement the tools that builtin manifests name; a built-in
	// skill also offers those registered for it (Register) that its
	// manifest does not list.
	GoTools []Tool
	// MCP are the servers of [[tools.mcp]].
	MCP []NamedMCP
	// Enabled says whether a skill is on; nil means all are.
	Enabled func(name string) bool
	// Timeout bounds a command skill's call when its manifest does not; 0
	// means the run's tool timeout.
	Timeout time.Duration
	// OutputLimit is the bytes of a command's output kept; 0 means 64 KiB.
	OutputLimit int
	// SelectAbove is the number of tools above which a run is sent only the
	// skills relevant to its task; 0 means 20.
	SelectAbove int
	// GOOS is the platform skills must list; "" means runtime.GOOS.
	GOOS string
	// Environ is the environment the processes of command skills and MCP
	// servers start with, and their sandbox; nil means Hermes's own, in the
	// default sandbox.
	Environ *Environ
	// Home is the Hermes home, which MCP servers' sandbox hides (runs give
	// command skills theirs).
	Home string
}

// Catalog holds the skills and the registry of their tools. Reload builds a
// new registry, so a run keeps the tools it started with while runs started
// later see the new ones. It is safe for concurrent use.
type Catalog struct {
	// reloading is held by a reload, which reads opts; opts is changed under
	// both it and mu.
	reloading sync.Mutex
	opts      Options

	mu         sync.RWMutex
	skills     []Skill
	reg        *Registry
	toolSkill  map[string]string // tool name -> skill name
	servers    map[string]*mcpServer
	selections map[string]*Selection
}

// Load reads every skill. A broken skill never stops the others: it is
// listed with its Problem and its tools are left out.
func Load(ctx context.Context, opts Options) *Catalog {
	opts.fill()
	c := &Catalog{opts: opts, servers: map[string]*mcpServer{}, selections: map[string]*Selection{}}
	c.Reload(ctx)
	return c
}

// fill gives the options left out their defaults.
func (o *Options) fill() {
	if o.OutputLimit <= 0 {
		o.OutputLimit = 64 * 1024
	}
	if o.SelectAbove <= 0 {
		o.SelectAbove = 20
	}
	if o.GOOS == "" {
		o.GOOS = runtime.GOOS
	}
	if o.Environ == nil {
		o.Environ = &Environ{}
	}
}

// Environ is the environment and sandbox the catalog's processes start in.
func (c *Catalog) Environ() *Environ {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.opts.Environ
}

// Registry is the current registry of the loaded skills' tools.
func (c *Catalog) Registry() *Registry {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.reg
}

// Skills lists the skills: built-ins, then the user's, then MCP servers.
func (c *Catalog) Skills() []Skill {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return slices.Clone(c.skills)
}

// Problems are what a person should fix: broken skills, and tools left
// out of loaded ones. Skills that are off, or not for this platform or
// configuration, are not problems; Skills lists them with their reason.
func (c *Catalog) Problems() []error {
	var out []error
	for _, s := range c.Skills() {
		if s.Problem != nil && (s.Status == StatusBroken || s.Status == StatusLoaded) {
			out = append(out, s.Problem)
		}
	}
	return out
}

// SetSecrets replaces the secrets left out of the processes tools start
// from now on, as an edit of hermes.toml changes them; an MCP server already
// running keeps the environment it started with.
func (c *Catalog) SetSecrets(s Secrets) { c.Environ().Set(s) }

// SetSandbox replaces the sandbox of the processes tools start from now
// on; an MCP server already running keeps the one it started in.
func (c *Catalog) SetSandbox(s SandboxConfig) { c.Environ().SetSandbox(s) }

// Close stops the MCP servers.
func (c *Catalog) Close() {
	c.mu.Lock()
	servers := c.servers
	c.servers = map[string]*mcpServer{}
	c.mu.Unlock()
	for _, s := range servers {
		s.close()
	}
}

// Reload reads the skills again and swaps in a new registry. The MCP
// servers it no longer has are stopped.
func (c *Catalog) Reload(ctx context.Context) []Skill {
	c.reloading.Lock()
	defer c.reloading.Unlock()
	skills, gone := c.reload(ctx)
	for _, s := range gone {
		s.close()
	}
	return skills
}

// Reconfigure makes the catalog anew from o, as an edit of hermes.toml
// changes it: the skills turned on and off, the MCP servers (one whose
// command, arguments, environment and sandbox are unchanged keeps running),
// the Go tools (the vault's), the limits. The catalog keeps its own
// environment, whatever o's. Runs started before keep the registry they
// were given, and its servers: retire stops those the new catalog does
// not have; call it once no such run is left.
func (c *Catalog) Reconfigure(ctx context.Context, o Options) (skills []Skill, retire func()) {
	c.reloading.Lock()
	defer c.reloading.Unlock()
	o.Environ = c.opts.Environ
	o.fill()
	c.mu.Lock()
	c.opts = o
	c.mu.Unlock()
	skills, gone := c.reload(ctx)
	return skills, stopping(gone)
}

// Refresh reads the skills again, as Reload does, for a caller that keeps
// the runs of the registry it replaces going: retire stops the MCP servers
// the new registry no longer has; call it once no such run is left.
func (c *Catalog) Refresh(ctx context.Context) (skills []Skill, retire func()) {
	c.reloading.Lock()
	defer c.reloading.Unlock()
	skills, gone := c.reload(ctx)
	return skills, stopping(gone)
}

// stopping is what stops the servers a reload left out.
func stopping(gone []*mcpServer) func() {
	return func() {
		for _, s := range gone {
			s.close()
		}
	}
}

// reload is Reload under c.reloading; gone are the servers the new
// registry no longer has, still running.
func (c *Catalog) reload(ctx context.Context) ([]Skill, []*mcpServer) {
	var found []found
	if c.opts.Builtin {
		found = builtinFound()
	}
	if c.opts.UserDir != "" {
		found = append(found, readTree(c.opts.UserDir)...)
	}
	for _, m := range c.opts.MCP {
		found = append(found, mcpFromConfig(m))
	}

	c.mu.RLock()
	old := c.servers
	c.mu.RUnlock()
	b := &build{c: c, opts: c.opts, reg: NewRegistry(), toolSkill: map[string]string{}, oldServers: old, servers: map[string]*mcpServer{}}
	b.goTools = map[string]Tool{}
	for _, t := range c.opts.GoTools {
		b.goTools[t.Name] = t
	}
	for _, f := range found {
		b.add(ctx, f)
	}
	b.addLoadSkill(c)

	c.mu.Lock()
	c.skills, c.reg, c.toolSkill, c.servers = b.skills, b.reg, b.toolSkill, b.servers
	c.mu.Unlock()
	var gone []*mcpServer
	for key, s := range old {
		if b.servers[key] != s {
			gone = append(gone, s)
		}
	}
	return slices.Clone(b.skills), gone
}

// build is one Reload in progress.
type build struct {
	c          *Catalog
	opts       Options
	reg        *Registry
	skills     []Skill
	toolSkill  map[string]string
	goTools    map[string]Tool
	oldServers map[string]*mcpServer
	servers    map[string]*mcpServer
}

func (b *build) add(ctx context.Context, f found) {
	s := Skill{Name: f.name, Source: f.source, Runner: RunnerCommand, Offer: OfferAlways}
	if f.instr != nil {
		s.Instructions, s.Description = f.instr.Body, f.instr.Description
	}
	if f.manifest != nil {
		s.Description, s.Runner, s.Keywords = f.manifest.Description, f.manifest.Runner, f.manifest.Keywords
		if f.manifest.Sandbox != nil {
			s.Asks = *f.manifest.Sandbox
		}
		if f.manifest.Offer != "" {
			s.Offer = f.manifest.Offer
		}
	}
	broken := func(err error) {
		s.Status, s.Problem = StatusBroken, err
		b.skills = append(b.skills, s)
	}
	if f.err != nil {
		where := f.file
		if f.dir != "" {
			where = filepath.Join(filepath.Dir(f.dir), filepath.FromSlash(f.file))
		}
		broken(i18n.Wrap(fmt.Errorf("%w: %s: %w", ErrBrokenSkill, where, f.err), "skills.broken", where, f.err))
		return
	}
	if slices.ContainsFunc(b.skills, func(o Skill) bool { return o.Name == s.Name }) {
		broken(i18n.Wrap(fmt.Errorf("%w: %s: name %s taken", ErrBrokenSkill, f.source, s.Name), "skills.name_taken", f.source, s.Name))
		return
	}
	if b.opts.Enabled != nil && !b.opts.Enabled(s.Name) {
		s.Status = StatusDisabled
		b.skills = append(b.skills, s)
		return
	}
	if f.manifest != nil && !forPlatform(f.manifest.Platforms, b.opts.GOOS) {
		s.Status, s.Problem = StatusUnavailable, i18n.Errorf("skills.platform", s.Name, strings.Join(f.manifest.Platforms, ", "), b.opts.GOOS)
		b.skills = append(b.skills, s)
		return
	}
	tools, notes, missing, err := b.tools(ctx, f)
	if err != nil {
		broken(i18n.Wrap(fmt.Errorf("%w: %s: %w", ErrBrokenSkill, s.Name, err), "skills.tools_failed", s.Name, err))
		return
	}
	if f.manifest != nil && len(tools) == 0 && len(notes)+len(missing) > 0 {
		s.Status = StatusUnavailable
		if setup, ok := builtinSetup[s.Name]; ok && f.source == SourceBuiltin && len(notes) == 0 {
			s.Problem = i18n.Errorf("skills.needs_setup", s.Name, i18n.TextOf(setup))
		} else {
			s.Problem = i18n.Errorf("skills.partial", s.Name, strings.Join(withMissing(notes, missing), "; "))
		}
		b.skills = append(b.skills, s)
		return
	}
	for _, t := range tools {
		if s.Offer == OfferRelevant {
			t = b.c.offeredOnCall(t, s.Name)
		}
		if err := b.reg.Register(t); err != nil {
			notes = append(notes, err.Error())
			continue
		}
		s.Tools = append(s.Tools, t.Name)
		b.toolSkill[t.Name] = s.Name
	}
	s.Status = StatusLoaded
	if notes = withMissing(notes, missing); len(notes) > 0 {
		s.Problem = i18n.Errorf("skills.partial", s.Name, strings.Join(notes, "; "))
	}
	b.skills = append(b.skills, s)
}

// tools builds a skill's tools. notes name tools that were left out;
// missing are those of a built-in skill not set up in this configuration
// (the vault's without a vault), told only where the skill's problem is.
func (b *build) tools(ctx context.Context, f found) (tools []Tool, notes, missing []string, err error) {
	m := f.manifest
	if m == nil {
		return nil, nil, nil, nil // instructions only
	}
	timeout := timeoutOf(m.Timeout)
	if timeout == 0 {
		timeout = b.opts.Timeout
	}
	var asks Asks
	if m.Sandbox != nil {
		asks = *m.Sandbox
	}
	switch m.Runner {
	case RunnerBuiltin:
		for _, mt := range m.Tools {
			t, ok := b.goTools[mt.Name]
			switch {
			case !ok:
				missing = append(missing, mt.Name)
			case forPlatform(mt.Platforms, b.opts.GOOS):
				tools = append(tools, t)
			}
		}
		// A built-in skill offers every tool registered for it (Register),
		// those its manifest does not list after those it does.
		for _, t := range b.opts.GoTools {
			if f.dir == "" && t.skill == m.Name && !slices.ContainsFunc(m.Tools, func(mt ManifestTool) bool { return mt.Name == t.Name }) {
				tools = append(tools, t)
			}
		}
	case RunnerCommand:
		if f.dir == "" {
			return nil, nil, nil, errors.New("a built-in skill cannot run a command: its files are not on disk")
		}
		for _, mt := range m.Tools {
			argv := mt.Command
			if len(argv) == 0 {
				argv = m.Command
			}
			if forPlatform(mt.Platforms, b.opts.GOOS) {
				tools = append(tools, commandTool(f.dir, argv, mt, orDuration(timeoutOf(mt.Timeout), timeout), b.opts.OutputLimit, b.opts.Environ, m.PassEnv, asks))
			}
		}
	case RunnerMCP:
		spec := *m.MCP
		if len(m.PassEnv) > 0 {
			spec.PassEnv = m.PassEnv
		}
		if f.dir != "" && strings.HasPrefix(spec.Command, "./") {
			spec.Command = filepath.Join(f.dir, spec.Command[2:])
		}
		key := m.Name + "\x00" + f.source + "\x00" + specKey(spec) + "\x00" + asksKey(asks)
		srv := b.oldServers[key]
		if srv == nil {
			srv = newMCPServer(m.Name, spec, b.opts.Environ, asks, b.opts.Home, f.dir)
		}
		b.servers[key] = srv
		overrides := map[string]ManifestTool{}
		for _, mt := range m.Tools {
			overrides[mt.Name] = mt
		}
		tools, notes, err := srv.mcpTools(ctx, overrides)
		return tools, notes, nil, err
	}
	return tools, notes, missing, nil
}

// withMissing is notes and, when a built-in skill's tools are missing, a
// note naming them.
func withMissing(notes, missing []string) []string {
	if len(missing) == 0 {
		return notes
	}
	return append(notes, i18n.T("skills.not_set_up", strings.Join(missing, ", ")))
}

func orDuration(first, fallback time.Duration) time.Duration {
	if first > 0 {
		return first
	}
	return fallback
}

func specKey(s MCPSpec) string {
	b, _ := json.Marshal(s)
	return string(b) + "\x00" + strings.Join(s.PassEnv, ",")
}

func asksKey(a Asks) string {
	b, _ := json.Marshal(a)
	return string(b)
}

func forPlatform(platforms []string, goos string) bool {
	return len(platforms) == 0 || slices.Contains(platforms, goos)
}

// loadedNames are the names of the loaded skills, sorted, for messages.
func loadedNames(skills []Skill) []string {
	var names []string
	for _, s := range skills {
		if s.Status == StatusLoaded {
			names = append(names, s.Name)
		}
	}
	sort.Strings(names)
	return names
}
