package cli

import (
	"context"

	"hermes/backend/config"
	"hermes/backend/runner"
	"hermes/backend/store"
	"hermes/backend/toolbox"
)

// openToolkit loads the skills, the vault's tools and the policy of home,
// with the "always" rules kept in store (nil: the listing commands, which
// approve nothing).
func openToolkit(ctx context.Context, home string, cfg config.Config, store *store.Store) (*runner.Toolkit, error) {
	var rules toolbox.RuleStore
	if store != nil {
		rules = runner.StoreRules(store)
	}
	return runner.OpenToolkit(ctx, home, cfg, rules)
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
