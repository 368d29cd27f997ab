package runner

import (
	"context"

	"hermes/backend/i18n"
	"hermes/backend/llm"
	"hermes/backend/toolbox"
)

// Settings returns the settings a new run would use, from hermes.toml and
// the environment: the model, and the tools it would be offered (the
// toolkit is opened for it, or brought up to date with hermes.toml, as a
// run's start does).
func (m *Manager) Settings() (Settings, error) {
	cfg, err := m.config()
	if err != nil {
		return Settings{}, err
	}
	ms := ModelSettings(cfg.Model, m.getenv, Overrides{})
	keyEnv := cfg.Model.APIKeyEnv
	if keyEnv == "" {
		keyEnv = "OPENAI_API_KEY"
	}
	ws := cfg.Agent.Workspace
	if ws == "" {
		ws = m.workspace
	}
	var endpoints []string
	for _, e := range cfg.Model.Endpoints {
		endpoints = append(endpoints, llm.RedactURL(e.BaseURL))
	}
	return Settings{
		Model: ms.Model, BaseURL: ms.BaseURL, HasKey: ms.APIKey != "", KeyEnv: keyEnv,
		Workspace: ws, Language: string(i18n.Current()), Home: m.home, ConfigPath: m.configPath,
		Sandbox:   sandboxStatus(toolbox.SandboxOf(cfg.Tools))(toolbox.RunSandbox{}),
		Endpoints: endpoints, Tools: m.toolset(cfg),
	}, nil
}

// CheckModel reports whether the model endpoint a run would use with the
// overrides answers and accepts the key, and whether a key was sent; the
// error says which setting to fix.
func (m *Manager) CheckModel(ctx context.Context, o Overrides) ModelCheck {
	cfg, err := m.config()
	if err != nil {
		return CheckResult(err)
	}
	ms, _, err := checkModel(ctx, cfg, m.getenv, o)
	r := CheckResult(err)
	r.KeySent = ms.APIKey != ""
	return r
}
