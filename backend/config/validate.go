package config

import (
	"errors"
	"net/url"

	"hermes/backend/i18n"
)

// Validate reports every setting out of its range at once, each with what to
// change. Call it after flags and the environment have been applied.
func (c Config) Validate() error {
	var errs []error
	if c.Version > Version {
		errs = append(errs, i18n.Wrap(ErrInvalid, "config.invalid.version", c.Version, Version, Version))
	}
	atLeast := func(key string, v, lowest int) {
		if v < lowest {
			errs = append(errs, i18n.Wrap(ErrInvalid, "config.invalid.min", key, v, lowest))
		}
	}
	positive := func(key string, d Duration) {
		if d.Duration <= 0 {
			errs = append(errs, i18n.Wrap(ErrInvalid, "config.invalid.duration", key, d.String()))
		}
	}
	atLeast("version", c.Version, 1)
	a, m := c.Agent, c.Model
	if a.Mode != ModeDesktop && a.Mode != ModeCLI && a.Mode != ModeBot {
		errs = append(errs, i18n.Wrap(ErrInvalid, "config.invalid.mode", a.Mode))
	}
	atLeast("[agent] max_iterations", a.MaxIterations, 1)
	atLeast("[agent] token_budget", a.TokenBudget, 0)
	positive("[agent] tool_timeout", a.ToolTimeout)
	atLeast("[agent] repeat_limit", a.RepeatLimit, 1)
	atLeast("[agent] failure_limit", a.FailureLimit, 1)
	atLeast("[agent] no_progress_limit", a.NoProgressLimit, 1)
	// Below a few hundred characters the head and tail of a result say
	// nothing; the cutting itself needs room for its note.
	atLeast("[agent] observation_limit", a.ObservationLimit, 200)
	errs = append(errs, a.validateStrategy())
	if u, err := url.Parse(m.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		errs = append(errs, i18n.Wrap(ErrInvalid, "config.invalid.base_url", shownURL(m.BaseURL)))
	}
	if m.Model == "" {
		errs = append(errs, i18n.Wrap(ErrInvalid, "config.invalid.model"))
	}
	atLeast("[model] context_window", m.ContextWindow, 0)
	atLeast("[model] max_retries", m.MaxRetries, 0)
	if n := m.MaxOutputTokens; n < minOutputTokens || n > maxOutputTokens {
		errs = append(errs, i18n.Wrap(ErrInvalid, "config.invalid.range", "[model] max_output_tokens", n, minOutputTokens, maxOutputTokens))
	}
	positive("[model] timeout", m.Timeout)
	if m.SendReasoning != SendReasoningAuto && m.SendReasoning != SendReasoningAlways && m.SendReasoning != SendReasoningNever {
		errs = append(errs, i18n.Wrap(ErrInvalid, "config.model.send_reasoning", m.SendReasoning))
	}
	errs = append(errs, m.validateEndpoints()...)
	errs = append(errs, c.validateEnvRefs()...)
	errs = append(errs, c.Tools.validate(), c.Obsidian.validate(), c.Update.validate())
	errs = append(errs, c.Context.validate())
	errs = append(errs, c.Bot.validate())
	errs = append(errs, c.validatePrices()...)
	errs = append(errs, c.Telemetry.validate())
	errs = append(errs, c.Cluster.validate())
	return errors.Join(errs...)
}

// Warnings are what the config lets Hermes start with but leaves open, once
// environment references are resolved (ResolveEnv): what [bot] and
// [cluster] warn of. `hermes config check` and `hermes bot` show them.
func (c Config) Warnings() []error { return append(c.Bot.Warnings(), c.Cluster.Warnings()...) }
