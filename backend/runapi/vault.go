package runapi

import (
	"hermes/backend/api"
	"hermes/backend/config"
)

// SetVault writes [obsidian] vault into the hermes.toml that runs read
// (their Settings' ConfigPath; "" removes the vault) and returns the
// settings a new run gets then. A process attached to the owner writes the
// owner's file, which is on this machine, and the owner follows it as it
// follows any edit.
func SetVault(runs Runs, vault string) (api.Settings, error) {
	st, err := runs.Settings()
	if err != nil {
		return api.Settings{}, err
	}
	if err := config.SetVault(st.ConfigPath, vault); err != nil {
		return api.Settings{}, err
	}
	return runs.Settings()
}
