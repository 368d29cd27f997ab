package config

import (
	"errors"
	"iter"

	"hermes/backend/i18n"
)

// Strategies of the agent loop ([agent] strategy).
const (
	StrategyPlan  = "plan"
	StrategyReact = "react"
)

// Protocols the model calls tools by ([agent] protocol).
const (
	ProtocolTools = "tools"
	ProtocolJSON  = "json"
)

// DefaultConfidence is the confidence an answer needs under the plan strategy.
const DefaultConfidence = 0.8

// Temperatures are the sampling temperatures of each stage's requests:
// routing, planning, deciding and evaluating low, so they follow the
// instructions, and the final answer's wording higher. [agent.top_p] has the
// same keys.
type Temperatures struct {
	Route    float64 `toml:"route"`
	Plan     float64 `toml:"plan"`
	Decide   float64 `toml:"decide"`
	Evaluate float64 `toml:"evaluate"`
	Answer   float64 `toml:"answer"`
}

// DefaultTemperatures are the temperatures where hermes.toml says nothing.
var DefaultTemperatures = Temperatures{Route: 0, Plan: 0.2, Decide: 0.2, Evaluate: 0, Answer: 0.7}

// stages yields each stage's key and value, in the order of the file.
func (t Temperatures) stages() iter.Seq2[string, float64] {
	return func(yield func(string, float64) bool) {
		for _, v := range []struct {
			key string
			v   float64
		}{{"route", t.Route}, {"plan", t.Plan}, {"decide", t.Decide}, {"evaluate", t.Evaluate}, {"answer", t.Answer}} {
			if !yield(v.key, v.v) {
				return
			}
		}
	}
}

func (a Agent) validateStrategy() error {
	var errs []error
	if a.Strategy != StrategyPlan && a.Strategy != StrategyReact {
		errs = append(errs, i18n.Wrap(ErrInvalid, "config.agent.strategy", a.Strategy))
	}
	if a.Protocol != ProtocolTools && a.Protocol != ProtocolJSON {
		errs = append(errs, i18n.Wrap(ErrInvalid, "config.agent.protocol", a.Protocol))
	}
	if a.Confidence < 0 || a.Confidence > 1 {
		errs = append(errs, i18n.Wrap(ErrInvalid, "config.agent.confidence", a.Confidence))
	}
	for key, t := range a.Temperature.stages() {
		// The OpenAI API takes 0 to 2; above that providers refuse the request.
		if t < 0 || t > 2 {
			errs = append(errs, i18n.Wrap(ErrInvalid, "config.agent.temperature", key, t))
		}
	}
	for key, p := range a.TopP.stages() {
		// top_p is a share of the probability mass; 0 is "not set".
		if p < 0 || p > 1 {
			errs = append(errs, i18n.Wrap(ErrInvalid, "config.agent.top_p", key, p))
		}
	}
	return errors.Join(errs...)
}
