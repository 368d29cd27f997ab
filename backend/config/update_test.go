package config

import (
	"errors"
	"strings"
	"testing"

	"hermes/backend/i18n"
)

func TestLoad_UpdateSection(t *testing.T) {
	cfg, err := Load(writeConfig(t, `
[update]
feed_url = "https://updates.example/hermes/feed.json"
public_key = "RWTCzAyzrynw3LIJfRTytmRHiTgPSNr1MoTanuFnOcLxYLzeIRZ6Uu4J"
channel = "beta"
check = "manual"
`))
	if err != nil {
		t.Fatal(err)
	}
	want := Update{FeedURL: "https://updates.example/hermes/feed.json", PublicKey: "RWTCzAyzrynw3LIJfRTytmRHiTgPSNr1MoTanuFnOcLxYLzeIRZ6Uu4J", Channel: "beta", Check: "manual"}
	if cfg.Update != want {
		t.Fatalf("got %+v, want %+v", cfg.Update, want)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	if cfg.Update.ChecksOnStart() {
		t.Fatal(`check = "manual" still checks at start`)
	}
	if !(Update{FeedURL: "https://x/feed.json"}).ChecksOnStart() || (Update{}).ChecksOnStart() {
		t.Fatal("the default should check at start when a feed is set, and never without one")
	}
}

func TestValidate_Update(t *testing.T) {
	i18n.SetLang(i18n.EN)
	tests := []struct {
		name string
		u    Update
		want string // "" = valid
	}{
		{"defaults", Update{}, ""},
		{"loopback http", Update{FeedURL: "http://127.0.0.1:8080/feed.json"}, ""},
		{"plain http", Update{FeedURL: "http://updates.example/feed.json"}, "[update] feed_url"},
		{"not a url", Update{FeedURL: "updates.example/feed.json"}, "not an https URL"},
		{"bad key", Update{PublicKey: "RWnot-a-key"}, "[update] public_key"},
		{"channel", Update{Channel: "nightly"}, `[update] channel is "nightly"`},
		{"check", Update{Check: "daily"}, `[update] check is "daily"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Default()
			c.Update = tt.u
			err := c.Validate()
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want ErrInvalid saying %q", err, tt.want)
			}
		})
	}
}
