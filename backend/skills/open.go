package skills

import (
	"context"
	"os"
	"path/filepath"

	"hermes/backend/config"
	builtin "hermes/skills"
)

// Open loads the skills of a home directory as hermes.toml's [tools] says:
// the built-in skills, the user's own in HOME/skills, the MCP servers of
// [[tools.mcp]]; and the policy of [tools] with the "always" rules that
// rules remembers (nil: none survive the process). extra are Go tools that
// built-in manifests name beyond the file tools and execute_command, such
// as the vault's. Broken skills do not fail it: see Catalog.Problems.
func Open(ctx context.Context, home string, cfg config.Config, rules RuleStore, extra ...Tool) (*Catalog, *RulePolicy, error) {
	t := cfg.Tools
	policy, err := NewPolicy(PolicyFromConfig(t), rules)
	if err != nil {
		return nil, nil, err
	}
	// Processes inherit Hermes's environment, so its secrets are known by
	// the values that environment holds.
	environ := NewEnviron(SecretsOf(cfg, os.Getenv))
	environ.SetSandbox(SandboxOf(t))
	return Load(ctx, OptionsOf(home, cfg, environ, extra...)), policy, nil
}

// OptionsOf are the options of the catalog of a home as hermes.toml's
// [tools] says, its processes started in environ; extra are Go tools
// beyond the file tools and execute_command (Open's). Catalog.Reconfigure
// takes them when hermes.toml changes.
func OptionsOf(home string, cfg config.Config, environ *Environ, extra ...Tool) Options {
	t := cfg.Tools
	var servers []NamedMCP
	for _, s := range t.MCP {
		servers = append(servers, NamedMCP{Name: s.Name, Spec: MCPSpec{
			Command: s.Command, Args: s.Args, Env: s.Env, PassEnv: s.PassEnv, Risk: Risk(s.Risk),
		}, Asks: Asks{Network: s.Network, Writable: s.Writable}})
	}
	goTools := append(FileTools(environ), ExecuteCommand(t.Timeout(0), t.Output(), environ), ReadArtifactTool())
	return Options{
		Builtin:     builtin.FS(),
		UserDir:     filepath.Join(home, "skills"),
		GoTools:     append(goTools, extra...),
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
