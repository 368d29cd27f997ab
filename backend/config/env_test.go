package config

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"hermes/backend/i18n"
)

func TestResolveEnv(t *testing.T) {
	env := map[string]string{"DEEPSEEK_API_KEY": "sk-deepseek", "OPENAI_API_KEY": "sk-openai"}
	getenv := func(k string) string { return env[k] }
	tests := []struct {
		name string
		m    Model
		want string
	}{
		{"a reference gives the value", Model{APIKey: "sk-file", APIKeyEnv: "DEEPSEEK_API_KEY"}, "sk-deepseek"},
		{"no reference keeps the file's value", Model{APIKey: "sk-file"}, "sk-file"},
		{"an unset variable gives nothing, not the file's value", Model{APIKey: "sk-file", APIKeyEnv: "UNSET"}, ""},
	}
	for _, tt := range tests {
		c := Default()
		c.Model = tt.m
		if got := c.ResolveEnv(getenv).Model.APIKey; got != tt.want {
			t.Errorf("%s: api_key %q, want %q", tt.name, got, tt.want)
		}
		// Model.FromEnv applies the same rule to a reference (without one it
		// also reads OPENAI_API_KEY).
		if got := tt.m.FromEnv(getenv).APIKey; tt.m.APIKeyEnv != "" && got != tt.want {
			t.Errorf("%s: FromEnv gives %q, ResolveEnv %q", tt.name, got, tt.want)
		}
	}
}

// envSection is a section as another part of Hermes would declare it, to
// show that the rule needs no code of its own.
type envSection struct {
	Token     string     `toml:"token"`
	TokenEnv  string     `toml:"token_env"`
	Orphan    string     `toml:"orphan_env"` // no "orphan" beside it: not a reference
	Endpoints []endpoint `toml:"endpoints"`
}

type endpoint struct {
	Secret    string `toml:"secret"`
	SecretEnv string `toml:"secret_env"`
}

func TestEnvRefs_AnySection(t *testing.T) {
	s := envSection{TokenEnv: "BOT_TOKEN", Orphan: "X", Endpoints: []endpoint{{SecretEnv: "EP_SECRET"}, {Secret: "inline"}}}
	var seen []string
	eachEnvRef(reflect.ValueOf(&s).Elem(), "bot.", func(key string, ref, target reflect.Value) {
		seen = append(seen, key+"="+ref.String())
		target.SetString("resolved-" + ref.String())
	})
	if got := strings.Join(seen, " "); got != "bot.token_env=BOT_TOKEN bot.endpoints.secret_env=EP_SECRET bot.endpoints.secret_env=" {
		t.Fatalf("references found: %q", got)
	}
	if s.Token != "resolved-BOT_TOKEN" || s.Endpoints[0].Secret != "resolved-EP_SECRET" {
		t.Fatalf("references not resolved: %+v", s)
	}
}

func TestValidate_EnvRefMustBeAName(t *testing.T) {
	i18n.SetLang(i18n.EN)
	c := Default()
	c.Model.APIKeyEnv = "sk-live-0123456789abcdef"
	err := c.Validate()
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "[model] api_key_env must be the name of an environment variable") {
		t.Fatalf("err = %v, want the reference refused", err)
	}
	if strings.Contains(err.Error(), "sk-live") {
		t.Fatalf("the message repeats what may be the secret: %v", err)
	}
	c.Model.APIKeyEnv = "DEEPSEEK_API_KEY"
	if err := c.Validate(); err != nil {
		t.Fatalf("a variable name is refused: %v", err)
	}
}
