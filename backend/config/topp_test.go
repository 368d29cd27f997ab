package config

import (
	"errors"
	"strings"
	"testing"

	"hermes/backend/i18n"
)

// TestLoad_TopP: [agent.top_p] has the stage keys of [agent.temperature];
// a stage left out stays 0 (none sent), and a value past 1 is refused with
// its key.
func TestLoad_TopP(t *testing.T) {
	i18n.SetLang(i18n.EN)
	cfg, err := Load(writeConfig(t, "[agent.top_p]\ndecide = 0.9\nanswer = 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	if want := (Temperatures{Decide: 0.9, Answer: 1}); cfg.Agent.TopP != want {
		t.Fatalf("top_p = %+v, want %+v", cfg.Agent.TopP, want)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, v := range []float64{1.5, -0.1} {
		c := Default()
		c.Agent.TopP.Plan = v
		err := c.Validate()
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "[agent.top_p] plan") {
			t.Fatalf("top_p %v: err = %v, want ErrInvalid naming [agent.top_p] plan", v, err)
		}
	}
}
