package toolbox

import (
	"context"
	"os"
	"path/filepath"

	"hermes/backend/config"
)

// Open loads the skills of a home directory as hermes.toml's [tools] says:
// the built-in skills with their tools (Register), the user's own in
// HOME/skills, the MCP servers of [[tools.mcp]]; and the policy of [tools]
// with the "always" rules that rules remembers (nil: none survive the
// process). vault is the Obsidian vault the obsidian skill's tools reach
// (With.Vault), nil for none. Broken skills do not fail it: see
// Catalog.Problems.
func Open(ctx context.Context, home string, cfg config.Config, rules RuleStore, vault any) (*Catalog, *RulePolicy) {
	t := cfg.Tools
	policy := NewPolicy(PolicyFromConfig(t), rules)
	// Processes inherit Hermes's environment, so its secrets are known by
	// the values that environment holds.
	environ := NewEnviron(SecretsOf(cfg, os.Getenv))
	environ.SetSandbox(SandboxOf(t))
	return Load(ctx, OptionsOf(home, cfg, environ, vault)), policy
}

// OptionsOf are the options of the catalog of a home as hermes.toml's
// [tools] says, its processes started in environ, its built-in tools made
// with vault as Open's. Catalog.Reconfigure takes them when hermes.toml
// changes.
func OptionsOf(home string, cfg config.Config, environ *Environ, vault any) Options {
	t := cfg.Tools
	var servers []NamedMCP
	for _, s := range t.MCP {
		servers = append(servers, NamedMCP{Name: s.Name, Spec: MCPSpec{
			Command: s.Command, Args: s.Args, Env: s.Env, PassEnv: s.PassEnv, Risk: Risk(s.Risk),
		}, Asks: Asks{Network: s.Network, Writable: s.Writable}})
	}
	return Options{
		Builtin:     true,
		UserDir:     filepath.Join(home, "skills"),
		GoTools:     builtins(With{Environ: environ, Timeout: t.Timeout(0), OutputLimit: t.Output(), Vault: vault}),
		MCP:         servers,
		Enabled:     t.SkillOn,
		Timeout:     t.Timeout(0),
		OutputLimit: t.Output(),
		SelectAbove: t.Threshold(),
		Environ:     environ,
		Home:        home,
	}
}

// PolicyFromConfig is the policy that [tools] describes.
func PolicyFromConfig(t config.Tools) PolicyConfig {
	pc := PolicyConfig{Risk: map[Risk]Action{}, Tools: map[string]Action{}, Sensitive: t.SensitivePatterns(), Commands: t.AllowCommands}
	for _, r := range []Risk{RiskRead, RiskWrite, RiskExec, RiskNetwork} {
		pc.Risk[r] = Action(t.Action(string(r)))
	}
	for _, l := range []struct {
		a     Action
		names []string
	}{{Allow, t.Allow}, {Ask, t.Ask}, {Deny, t.Deny}} {
		for _, name := range l.names {
			pc.Tools[name] = l.a
		}
	}
	return pc
}
