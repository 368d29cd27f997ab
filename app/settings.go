package app

import (
	"hermes/backend/runapi"
	"hermes/backend/runner"
)

// SetVault writes [obsidian] vault into hermes.toml, its comments kept ("":
// no vault), and returns the settings a new run gets then; refused, with
// why, when the folder is not there.
func (a *App) SetVault(vault string) (runner.Settings, error) {
	s, err := runapi.SetVault(a.runs, vault)
	return s, apiError(err)
}
