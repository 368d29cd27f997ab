package runner

import (
	"context"

	"hermes/backend/i18n"
)

// Settings are what the New-run form shows and prefills. The API key itself
// never leaves the backend: only whether there is one, and where it is read.
type Settings struct {
	Model   string `json:"model"`
	BaseURL string `json:"base_url"`
	HasKey  bool   `json:"has_key"`
	// KeyEnv is the environment variable the key is read from
	// ([model] api_key_env, else OPENAI_API_KEY).
	KeyEnv string `json:"key_env"`
	// Workspace is where a new run works unless the form says otherwise; ""
	// when the form must ask.
	Workspace  string `json:"workspace"`
	Language   string `json:"language"`
	Home       string `json:"home"`
	ConfigPath string `json:"config_path"`
}

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
