package eval

import (
	"context"
	"strings"

	"hermes/backend/agent"
	"hermes/backend/config"
	"hermes/backend/runner"
	"hermes/backend/sandbox"
	"hermes/backend/vault"
)

// ManagerStart starts eval runs in m, the home's runner, as hermes run's
// runs start there: the same setup (runner.Build, the toolkit's skills, MCP
// servers and approval policy), with the variant's model, endpoint,
// strategy and temperature. A run with a vault of its own (the task's
// fixture, copied) is offered that vault's tools in place of the
// configured vault's, beside the file tools; the configured skills are not
// offered to it, since the toolkit's registry carries the configured vault.
func ManagerStart(m *runner.Manager, home string, cfg config.Config, getenv func(string) string) func(context.Context, Spec) (string, error) {
	return func(ctx context.Context, s Spec) (string, error) {
		c := cfg
		if s.Strategy != "" {
			c.Agent.Strategy = s.Strategy
		}
		if s.Temperature != nil {
			t := *s.Temperature
			c.Agent.Temperature = config.Temperatures{Route: t, Plan: t, Decide: t, Evaluate: t, Answer: t}
		}
		setup, err := runner.Build(ctx, home, c, getenv, runner.Overrides{Model: s.Model, BaseURL: s.BaseURL, MaxIterations: s.MaxIterations})
		if err != nil {
			return "", err
		}
		kit, err := m.Toolkit(ctx, cfg)
		if err != nil {
			return "", err
		}
		var closeVault func()
		if kit != nil {
			if err := kit.Configure(ctx, cfg); err != nil {
				return "", err
			}
			if s.Vault == "" {
				kit.Apply(&setup)
			} else {
				setup.Policy = kit.Policy
			}
		}
		if s.Vault != "" {
			v, err := vault.Prepare(s.Vault, vault.Options{Home: home, Exclude: cfg.Obsidian.Exclude})
			if err != nil {
				return "", err
			}
			closeVault = func() { _ = v.Close() }
			for _, t := range v.Tools() {
				if err := setup.Tools.Register(t); err != nil {
					closeVault()
					return "", err
				}
			}
		}
		task := agent.Task{
			Text: strings.TrimSpace(s.Task), Instructions: s.Instructions, Workspace: s.Workspace,
			Sandbox: sandbox.Mode(""), Memory: agent.MemoryUse(s.Memory),
		}
		var h runner.Hooks
		if closeVault != nil {
			h.Done = func(agent.Result) { closeVault() }
		}
		id, err := m.StartSetup(setup, task, h)
		if err != nil && closeVault != nil {
			closeVault()
		}
		return id, err
	}
}
