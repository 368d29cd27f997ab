package config

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestContext_DefaultsAndOverrides(t *testing.T) {
	d := Default().Context
	if d.Recent() != 8 || d.CompressShare() != 0.6 || d.MemoryMode() != MemoryOn || d.MemoryCap() != 1000 || d.FadeAfter() != 90*24*time.Hour {
		t.Fatalf("[context] defaults differ from the documented ones: %d %v %s %d %s",
			d.Recent(), d.CompressShare(), d.MemoryMode(), d.MemoryCap(), d.FadeAfter())
	}
	cfg, err := Load(writeConfig(t, `
[context]
recent_turns = 4
compress_at = 0.5
summary_model = "gpt-4o-mini"
memory = "read"
memory_tokens = 300
memory_fade = "720h"
`))
	if err != nil {
		t.Fatal(err)
	}
	c := cfg.Context
	if c.Recent() != 4 || c.CompressShare() != 0.5 || c.SummaryModel != "gpt-4o-mini" || c.MemoryMode() != MemoryRead ||
		c.MemoryCap() != 300 || c.FadeAfter() != 720*time.Hour {
		t.Fatalf("[context] read as %+v", c)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatalf("valid [context] refused: %v", err)
	}
}

func TestContext_Validate(t *testing.T) {
	cases := []struct {
		name string
		ctx  Context
		want string // in the message; "" means valid
	}{
		{"defaults", Context{}, ""},
		{"negative recent turns", Context{RecentTurns: -1}, "[context] recent_turns"},
		{"compress_at too small", Context{CompressAt: 0.05}, "between 0.1 and 0.95"},
		{"compress_at too large", Context{CompressAt: 1.2}, "between 0.1 and 0.95"},
		{"unknown memory mode", Context{Memory: "sometimes"}, `"on", "read" or "off"`},
		{"negative memory cap", Context{MemoryTokens: -5}, "[context] memory_tokens"},
		{"negative fade", Context{MemoryFade: Duration{-time.Hour}}, "[context] memory_fade"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.ctx.validate()
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, ErrInvalid)):
				t.Fatalf("error %v, want ErrInvalid saying %q", err, c.want)
			}
		})
	}
}
