package cli

import "hermes/backend/config"

// resolveHome picks the home directory: the --home flag, else $HERMES_HOME,
// else ~/.hermes, creating it on first use.
func resolveHome(env *Env, homeFlag string) (string, error) {
	return config.ResolveHome(homeFlag, env.Getenv)
}
