package runner

import (
	"net/url"

	"hermes/backend/config"
	"hermes/backend/event"
	"hermes/backend/i18n"
	"hermes/backend/llm"
	"hermes/backend/runlog"
)

// recordedModel is the model and endpoint a run last ran with: run.started's,
// or a later resume's. The base URL is as logged, masked by llm.RedactURL.
func recordedModel(events []event.Event) (model, baseURL string) {
	for _, e := range events {
		switch e.Type {
		case event.RunStarted:
			if d, err := event.Decode[event.RunStartedData](e); err == nil {
				model, baseURL = d.Model, d.BaseURL
			}
		case event.RunResumed:
			if d, err := event.Decode[event.RunResumedData](e); err == nil && d.Model != "" {
				model, baseURL = d.Model, d.BaseURL
			}
		}
	}
	return model, baseURL
}

// keepModel fills what a resume's or fork's overrides leave empty with the
// model and endpoint the run recorded, so the run goes on where it started
// rather than at whatever hermes.toml names today. The key is not part of
// it: it follows the endpoint as for any run (config.Model.At).
func keepModel(m config.Model, getenv func(string) string, runID string, events []event.Event, o Overrides) (Overrides, error) {
	model, base := recordedModel(events)
	if o.Model == "" {
		o.Model = model
	}
	if o.BaseURL == "" && base != "" {
		real, err := unmask(m, getenv, runID, base)
		if err != nil {
			return o, err
		}
		o.BaseURL = real
	}
	return o, nil
}

// unmask returns the base URL a run's log recorded as logged. The log holds
// it masked (llm.RedactURL), and Hermes keeps the secret a URL may hold
// nowhere else: a masked URL is found again among the endpoints hermes.toml
// and the environment name, else the person must give it again.
func unmask(m config.Model, getenv func(string) string, runID, logged string) (string, error) {
	m = m.FromEnv(getenv)
	candidates := []string{m.BaseURL}
	for _, e := range m.Endpoints {
		candidates = append(candidates, e.BaseURL)
	}
	for _, c := range candidates {
		if c != "" && llm.RedactURL(c) == logged {
			return c, nil
		}
	}
	if masked(logged) {
		return "", i18n.Wrap(ErrEndpointSecret, "runner.endpoint_secret", runID, logged)
	}
	return logged, nil
}

// masked reports whether llm.RedactURL hid part of a URL: a password, or a
// query value.
func masked(logged string) bool {
	u, err := url.Parse(logged)
	if err != nil {
		return true
	}
	if _, ok := u.User.Password(); ok {
		return true
	}
	for _, vs := range u.Query() {
		for _, v := range vs {
			if v != "" {
				return true
			}
		}
	}
	return false
}

// ResumeOverrides is the overrides a resume of run id in home goes on with:
// those given, and for the model and endpoint left out, the ones the run
// recorded. `hermes resume` without an owner process builds its own setup
// with them.
func ResumeOverrides(home, id string, m config.Model, getenv func(string) string, o Overrides) (Overrides, error) {
	path, err := runlog.Find(home, id)
	if err != nil {
		return o, err
	}
	events, err := runlog.ReadFile(path)
	if err != nil {
		return o, err
	}
	return keepModel(m, getenv, id, events, o)
}
