package runner

import (
	"context"

	"hermes/backend/i18n"
	"hermes/backend/skills"
)

// Settings returns the model settings a new run would use, from hermes.toml
// and the environment.
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
	return Settings{
		Model: ms.Model, BaseURL: ms.BaseURL, HasKey: ms.APIKey != "", KeyEnv: keyEnv,
		Workspace: ws, Language: string(i18n.Current()), Home: m.home, ConfigPath: m.configPath,
		Sandbox: sandboxStatus(skills.SandboxOf(cfg.Tools))(skills.RunSandbox{}),
	}, nil
}

// CheckModel reports whether the model endpoint a run would use with the
// overrides answers and accepts the key; the error says which setting to fix.
func (m *Manager) CheckModel(ctx context.Context, o Overrides) error {
	cfg, err := m.config()
	if err != nil {
		return err
	}
	_, _, err = checkModel(ctx, cfg, m.getenv, o)
	return err
}
