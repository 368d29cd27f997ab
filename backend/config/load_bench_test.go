package config

import (
	"testing"

	"hermes/backend/i18n"
)

// BenchmarkParse is a load's work on hermes.toml as `config init` writes
// it, the file every command reads at its start; and on one that sets
// [bot], whose keys are decoded once for Bot and once per platform.
func BenchmarkParse(b *testing.B) {
	for _, c := range []struct{ name, src string }{
		{"init", string(DefaultFile(i18n.EN))},
		{"bot", "[model]\nmodel = \"m\"\n\n[bot]\nplatform = \"webhook\"\nlisten = \"127.0.0.1:0\"\nwebhook_secret = \"s\"\n"},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, _, err := parse("hermes.toml", []byte(c.src)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
