package config

import (
	"errors"
	"path"
	"strings"

	"hermes/backend/i18n"
)

// Obsidian points the vault tools at a vault.
type Obsidian struct {
	// Vault is the vault's folder; "" leaves the vault tools out (unless
	// `hermes run --vault` names one). A leading "~/" is the user's home.
	Vault string `toml:"vault"`
	// Exclude are folder or file names never read, besides .obsidian,
	// .trash, .git and node_modules, as patterns ("Archive", "*.excalidraw.md").
	Exclude []string `toml:"exclude"`
}

func (o Obsidian) validate() error {
	var errs []error
	for _, p := range o.Exclude {
		if _, err := path.Match(p, ""); err != nil || p == "" || strings.ContainsAny(p, `/\`) {
			errs = append(errs, i18n.Wrap(ErrInvalid, "config.obsidian.exclude", p))
		}
	}
	return errors.Join(errs...)
}
