package cli

import (
	"context"

	"hermes/backend/config"
	"hermes/backend/memory"
	"hermes/backend/runner"
	"hermes/backend/skills"
)

// toolkit is what a command that calls tools needs: the skills and their
// registry, and the policy that approves calls.
type toolkit struct {
	catalog *skills.Catalog
	policy  *skills.RulePolicy
	kit     *runner.Toolkit
}

// openToolkit loads the skills, the vault's tools and the policy of home,
// with the "always" rules kept in store (nil: the listing commands, which
// approve nothing).
func openToolkit(ctx context.Context, home string, cfg config.Config, store *memory.Store) (*toolkit, error) {
	var rules skills.RuleStore
	if store != nil {
		rules = runner.StoreRules(store)
	}
	k, err := runner.OpenToolkit(ctx, home, cfg, rules)
	if err != nil {
		return nil, err
	}
	return &toolkit{catalog: k.Catalog, policy: k.Policy, kit: k}, nil
}

func (k *toolkit) close() { k.kit.Close() }

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
