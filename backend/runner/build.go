// Package runner is the one place that builds runs and tracks the live ones:
// Build turns a home directory, its config and a run's overrides into an
// agent.Setup for every mode (`hermes run`, `hermes serve`, the window), and
// Manager starts, steers and watches the runs of one process.
package runner

import (
	"context"
	"errors"
	"path/filepath"

	"hermes/backend/agent"
	"hermes/backend/config"
	"hermes/backend/event"
	"hermes/backend/i18n"
	"hermes/backend/llm"
	"hermes/backend/runlog"
	"hermes/backend/toolbox"
)

// ModelSettings layers the model settings: hermes.toml, then the environment
// (OPENAI_BASE_URL, OPENAI_API_KEY or the variable api_key_env names), then
// the overrides; each later one wins. The key follows the endpoint, never
// the request (config.Model.At): an override base_url that is not the
// configured endpoint gets the key of its [[model.endpoints]] entry, else
// none.
func ModelSettings(m config.Model, getenv func(string) string, o Overrides) config.Model {
	m, _ = modelSettings(m, getenv, o)
	return m
}

// modelSettings is ModelSettings, and whether the endpoint is one that
// hermes.toml gives a key for.
func modelSettings(m config.Model, getenv func(string) string, o Overrides) (config.Model, bool) {
	m, known := m.At(o.BaseURL, getenv)
	if o.Model != "" {
		m.Model = o.Model
	}
	return m, known
}

// checkModel makes the client of the settings and checks that the endpoint
// answers and takes the key. An endpoint that refuses a run for want of a
// key, when the configured key was kept from it, is told how to give it one.
func checkModel(ctx context.Context, cfg config.Config, getenv func(string) string, o Overrides) (config.Model, *llm.Client, error) {
	m, known := modelSettings(cfg.Model, getenv, o)
	client := newClient(cfg, m)
	err := client.Check(ctx)
	if err != nil && !known && (errors.Is(err, llm.ErrMissingKey) || errors.Is(err, llm.ErrUnauthorized)) {
		shown := llm.RedactURL(m.BaseURL)
		err = i18n.Wrap(err, "runner.endpoint_key", shown, shown)
	}
	return m, client, err
}

// Build constructs what a run needs from home, its config and the
// overrides: the model client (checked: the endpoint answers and takes the
// key), the tools, the redactor that keeps every secret hermes.toml and the
// environment hold (config.Config.Secrets), and those of the run's
// endpoint, out of every event and every tool result the model is sent, the
// limits and the context window. The caller adds Store, LongTerm and Bus,
// which outlive a run.
func Build(ctx context.Context, home string, cfg config.Config, getenv func(string) string, o Overrides) (agent.Setup, error) {
	return BuildWith(ctx, home, cfg, getenv, o, nil)
}

// BuildWith is Build with the tools and policy of the toolkit kitOf gives
// once the model answers, configured as cfg says, in place of the built-in
// tools alone, which are then not made. A nil kitOf, or a nil toolkit, is
// Build.
func BuildWith(ctx context.Context, home string, cfg config.Config, getenv func(string) string, o Overrides, kitOf func() (*Toolkit, error)) (agent.Setup, error) {
	if o.MaxIterations > 0 {
		cfg.Agent.MaxIterations = o.MaxIterations
	}
	if err := cfg.Validate(); err != nil {
		return agent.Setup{}, err
	}
	m, client, err := checkModel(ctx, cfg, getenv, o)
	if err != nil {
		return agent.Setup{}, err
	}
	var kit *Toolkit
	if kitOf != nil {
		if kit, err = kitOf(); err != nil {
			return agent.Setup{}, err
		}
	}
	var tools *toolbox.Registry
	if kit == nil {
		environ := toolbox.NewEnviron(toolbox.SecretsOf(cfg, getenv))
		environ.SetSandbox(toolbox.SandboxOf(cfg.Tools))
		if tools, err = everyRunsTools(environ); err != nil {
			return agent.Setup{}, err
		}
	}
	window := cfg.Model.ContextWindow
	if window == 0 {
		window = config.ContextWindowFor(m.Model)
	}
	a, c, temp := cfg.Agent, cfg.Context, cfg.Agent.Temperature
	// The run's base URL may be another than the config's (--base-url), with
	// a password of its own, which a tool can read in the process's
	// arguments.
	secrets := append(cfg.Secrets(getenv), m.APIKey)
	secrets = append(secrets, config.URLSecrets(m.BaseURL)...)
	secrets = append(secrets, config.URLSecrets(o.BaseURL)...)
	setup := agent.Setup{
		Home: home, Redactor: runlog.NewRedactor(secrets...),
		Model: client, ModelName: m.Model, BaseURL: llm.RedactURL(m.BaseURL), Tools: tools,
		Prices: cfg.PriceTable(), SummaryModel: c.SummaryModel, Memory: agent.MemoryUse(c.MemoryMode()),
		Strategy: agent.Strategy(a.Strategy), Protocol: agent.Protocol(a.Protocol), Route: a.Route, Confidence: a.Confidence,
		Temperatures: &agent.Temperatures{
			Route: float32(temp.Route), Plan: float32(temp.Plan), Decide: float32(temp.Decide),
			Evaluate: float32(temp.Evaluate), Answer: float32(temp.Answer),
		},
		TopP: &agent.Temperatures{
			Route: float32(a.TopP.Route), Plan: float32(a.TopP.Plan), Decide: float32(a.TopP.Decide),
			Evaluate: float32(a.TopP.Evaluate), Answer: float32(a.TopP.Answer),
		},
		SandboxStatus: sandboxStatus(toolbox.SandboxOf(cfg.Tools)),
		Limits: agent.Limits{
			MaxIterations: a.MaxIterations, TokenBudget: a.TokenBudget, RepeatLimit: a.RepeatLimit,
			FailureLimit: a.FailureLimit, NoProgressLimit: a.NoProgressLimit,
			ObservationLimit: a.ObservationLimit, ContextWindow: window, ToolTimeout: a.ToolTimeout.Duration,
			RecentTurns: c.Recent(), CompressAt: c.CompressShare(), MemoryTokens: c.MemoryCap(), MemoryFade: c.FadeAfter(),
		},
	}
	if kit != nil {
		if err := kit.Configure(ctx, cfg); err != nil {
			return setup, err
		}
		kit.Apply(&setup)
	}
	return setup, nil
}

// everyRunsTools is the registry of the tools a run has without a toolkit,
// those of the built-in skill every run has (toolbox.SkillFiles), made with
// environ (nil: Hermes's own). The toolkit's catalog offers them among its
// own to the runs it is applied to.
func everyRunsTools(environ *toolbox.Environ) (*toolbox.Registry, error) {
	tools := toolbox.NewRegistry()
	for _, t := range toolbox.Builtins(toolbox.With{Environ: environ}, toolbox.SkillFiles) {
		if err := tools.Register(t); err != nil {
			return nil, err
		}
	}
	return tools, nil
}

// sandboxStatus says how a run's commands are confined under c.
func sandboxStatus(c toolbox.SandboxConfig) func(toolbox.RunSandbox) *event.SandboxData {
	return func(rs toolbox.RunSandbox) *event.SandboxData {
		st := c.Status(rs)
		return &event.SandboxData{Mode: string(st.Mode), Network: st.Network, Enforced: st.Enforced, How: st.How, Gaps: st.Gaps, Why: st.Why}
	}
}

func newClient(cfg config.Config, m config.Model) *llm.Client {
	return llm.New(llm.Config{
		BaseURL: m.BaseURL, APIKey: m.APIKey, Model: m.Model, Stream: true,
		MaxRetries: cfg.Model.MaxRetries, Timeout: cfg.Model.Timeout.Duration,
		MaxOutputTokens: cfg.Model.MaxOutputTokens, SendReasoning: cfg.Model.SendReasoning,
	})
}

// StorePath is the bbolt database of a home directory.
func StorePath(home string) string { return filepath.Join(home, "hermes.db") }
