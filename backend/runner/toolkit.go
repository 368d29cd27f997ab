package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"hermes/backend/agent"
	"hermes/backend/config"
	"hermes/backend/skills"
	"hermes/backend/store"
	"hermes/backend/vault"
)

// Toolkit is what a process offers its runs: the skills (built-in, the
// user's own, MCP servers), the vault's tools when a vault is set, and the
// policy that approves calls. It outlives runs: MCP servers and the vault's
// watcher keep running until Close. The vault is opened by the first call
// of a vault tool, not before: a run that never searches the notes never
// reads the index.
type Toolkit struct {
	Catalog *skills.Catalog
	Policy  *skills.RulePolicy
	vault   *vault.Lazy // nil when no vault is set
}

// OpenToolkit loads the toolkit of home as cfg says, with the "always" rules
// that rules keeps (nil: none survive the process), for a process that
// ends with its task (`hermes run`, `hermes tools call`): the vault, once
// opened, is not watched, since a change made meanwhile is found by the
// next process's check of the folders.
func OpenToolkit(ctx context.Context, home string, cfg config.Config, rules skills.RuleStore) (*Toolkit, error) {
	return openToolkit(ctx, home, cfg, rules, false)
}

// OpenWatchedToolkit is OpenToolkit for a long-lived process (the window,
// `hermes serve`, `hermes bot`): the vault, once opened, is watched, so
// that a note edited meanwhile is searchable within about a second.
func OpenWatchedToolkit(ctx context.Context, home string, cfg config.Config, rules skills.RuleStore) (*Toolkit, error) {
	return openToolkit(ctx, home, cfg, rules, true)
}

func openToolkit(ctx context.Context, home string, cfg config.Config, rules skills.RuleStore, watch bool) (*Toolkit, error) {
	v, vaultTools, err := openVault(home, cfg.Obsidian, watch)
	if err != nil {
		return nil, err
	}
	extra := append(vaultTools, skills.ReadArtifactTool())
	catalog, policy, err := skills.Open(ctx, home, cfg, rules, extra...)
	if err != nil {
		if v != nil {
			v.Close()
		}
		return nil, err
	}
	return &Toolkit{Catalog: catalog, Policy: policy, vault: v}, nil
}

// Apply gives a run's setup the toolkit's tools, its policy, and the choice
// of the tools relevant to each task.
func (k *Toolkit) Apply(s *agent.Setup) {
	s.Tools, s.Policy = k.Catalog.Registry(), k.Policy
	s.Select = func(runID, task string) agent.ToolSelection { return k.Catalog.Select(runID, task) }
}

// Configure applies an edited [tools] policy to every call checked from
// now on, and the edited secrets and sandbox to the processes tools start;
// the "always" rules stay. Skills, MCP servers and the vault are loaded when the toolkit
// opens: a change to them applies after a restart.
func (k *Toolkit) Configure(cfg config.Config) {
	k.Policy.SetConfig(skills.PolicyFromConfig(cfg.Tools))
	k.Catalog.SetSecrets(skills.SecretsOf(cfg, os.Getenv))
	k.Catalog.SetSandbox(skills.SandboxOf(cfg.Tools))
}

// Close stops the MCP servers and the vault's watcher.
func (k *Toolkit) Close() {
	k.Catalog.Close()
	if k.vault != nil {
		k.vault.Close()
	}
}

// openVault checks the vault's folder and patterns now and opens it on the
// first call of one of its tools.
func openVault(home string, o config.Obsidian, watch bool) (*vault.Lazy, []skills.Tool, error) {
	if o.Vault == "" {
		return nil, nil, nil
	}
	dir := o.Vault
	if rest, ok := strings.CutPrefix(dir, "~/"); ok {
		if h, err := os.UserHomeDir(); err == nil {
			dir = filepath.Join(h, rest)
		}
	}
	v, err := vault.Prepare(dir, vault.Options{Home: home, Exclude: o.Exclude, Watch: watch})
	if err != nil {
		return nil, nil, err
	}
	return v, v.Tools(), nil
}

// StoreRules keeps "always" rules in an open hermes.db.
func StoreRules(s *store.Store) skills.RuleStore {
	return storeRules{func() (*store.Store, func(), error) { return s, func() {}, nil }}
}

// storeRules reaches the database through open, which may open it for the
// call only (the Manager holds it just while runs are live).
type storeRules struct {
	open func() (*store.Store, func(), error)
}

func (r storeRules) Rules() ([]skills.Rule, error) {
	s, done, err := r.open()
	if err != nil {
		return nil, err
	}
	defer done()
	rules, err := s.ApprovalRules()
	if err != nil {
		return nil, err
	}
	out := make([]skills.Rule, len(rules))
	for i, x := range rules {
		out[i] = skills.Rule{ID: x.ID, Tool: x.Tool, Pattern: x.Pattern, Created: x.Created}
	}
	return out, nil
}

func (r storeRules) AddRule(tool, pattern string, now time.Time) (skills.Rule, error) {
	s, done, err := r.open()
	if err != nil {
		return skills.Rule{}, err
	}
	defer done()
	x, err := s.AddApprovalRule(tool, pattern, now)
	if err != nil {
		return skills.Rule{}, fmt.Errorf("remember always-allow: %w", err)
	}
	return skills.Rule{ID: x.ID, Tool: x.Tool, Pattern: x.Pattern, Created: x.Created}, nil
}
