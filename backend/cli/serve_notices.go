package cli

import (
	"context"
	"fmt"

	"hermes/backend/runner"
)

// watchHome makes the process that owns a home follow its hermes.toml (a
// good edit applies to the next run, a broken one keeps the last good
// config) and, when [update] says so, check for a new version; both show as
// notices in the browser until ctx ends. A browser cannot restart the
// server, so the update notice says to run `hermes update`.
func watchHome(ctx context.Context, env *Env, m *runner.Manager) {
	if err := m.WatchConfig(ctx); err != nil {
		fmt.Fprintln(env.Stderr, err) // the server still works; only edits need a restart
	}
	if _, err := m.CheckForUpdates(ctx, runner.UpdateOptions{Version: env.Version}); err != nil {
		fmt.Fprintln(env.Stderr, err)
	}
}
