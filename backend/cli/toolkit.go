package cli

import (
	"context"
	"fmt"
	"time"

	"hermes/backend/config"
	"hermes/backend/memory"
	"hermes/backend/skills"
	"hermes/backend/vault"
)

// toolkit is what a command that calls tools needs: the skills and their
// registry, and the policy that approves calls.
type toolkit struct {
	catalog *skills.Catalog
	policy  *skills.RulePolicy
	vault   *vault.Vault // nil when no vault is set
}

// openToolkit loads the skills and the policy of home, with the "always"
// rules kept in store (nil: the listing commands, which approve nothing).
// extra are Go tools that built-in manifests name, such as the vault's.
func openToolkit(ctx context.Context, home string, cfg config.Config, store *memory.Store, extra ...skills.Tool) (*toolkit, error) {
	var rules skills.RuleStore
	if store != nil {
		rules = ruleStore{store}
	}
	v, vaultTools, err := openVault(home, cfg.Obsidian)
	if err != nil {
		return nil, err
	}
	catalog, policy, err := skills.Open(ctx, home, cfg, rules, vaultTools...)
	if err != nil {
		if v != nil {
			v.Close()
		}
		return nil, err
	}
	return &toolkit{catalog: catalog, policy: policy, vault: v}, nil
}

func (k *toolkit) close() {
	k.catalog.Close()
	if k.vault != nil {
		k.vault.Close()
	}
}

// ruleStore keeps "always" rules in hermes.db.
type ruleStore struct{ s *memory.Store }

func (r ruleStore) Rules() ([]skills.Rule, error) {
	rules, err := r.s.ApprovalRules()
	if err != nil {
		return nil, err
	}
	out := make([]skills.Rule, len(rules))
	for i, x := range rules {
		out[i] = skills.Rule{ID: x.ID, Tool: x.Tool, Pattern: x.Pattern, Created: x.Created}
	}
	return out, nil
}

func (r ruleStore) AddRule(tool, pattern string, now time.Time) (skills.Rule, error) {
	x, err := r.s.AddApprovalRule(tool, pattern, now)
	if err != nil {
		return skills.Rule{}, fmt.Errorf("remember always-allow: %w", err)
	}
	return skills.Rule{ID: x.ID, Tool: x.Tool, Pattern: x.Pattern, Created: x.Created}, nil
}

// loadConfig resolves the home directory and reads and checks its config,
// for the commands that need no model.
func loadConfig(env *Env, homeFlag, configFlag string) (string, config.Config, error) {
	home, err := resolveHome(env, homeFlag)
	if err != nil {
		return "", config.Config{}, err
	}
	path := configFlag
	if path == "" {
		path = config.Path(home)
	}
	cfg, err := config.Load(path)
	if err != nil {
		return "", config.Config{}, err
	}
	if err := cfg.Validate(); err != nil {
		return "", config.Config{}, err
	}
	return home, cfg, nil
}
