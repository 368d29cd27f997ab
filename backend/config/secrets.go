package config

import (
	"net/url"
	"reflect"
	"slices"
	"strings"
)

// The secrets Hermes holds are found the way Redacted finds them, by their
// keys' names (isSecret), so a new section's "secret" or "*_token", and its
// X_env reference, are covered with no more code. Every place a secret could
// leave by (a log, an event, memory, a tool's environment) draws on these
// two lists.

// modelKeyVar is the variable the model's key is read from when neither
// api_key_env nor api_key says otherwise.
const modelKeyVar = "OPENAI_API_KEY"

// Secrets returns every secret value c holds, read through getenv: each key
// named as a secret in every table and array of tables ([model] api_key,
// [[model.endpoints]] api_key, [bot] secret, webhook_secret,
// encoding_aes_key…), each value of an environment table under a secret's
// name ([[tools.mcp]] env GITHUB_TOKEN), the value of every variable an X_env
// reference names, and OPENAI_API_KEY's; the credentials of [telemetry]'s
// headers without their scheme ("Bearer …"); and what a URL in any of them,
// or in OPENAI_BASE_URL, holds (URLSecrets). Values are trimmed, empty ones
// left out, and each is listed once.
func (c Config) Secrets(getenv func(string) string) []string {
	var out []string
	add := func(s string) {
		if s = strings.TrimSpace(s); s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	eachSecret(reflect.ValueOf(c), add)
	for _, name := range c.SecretVars() {
		add(getenv(name))
	}
	// A tool may print a header's credentials without the scheme.
	for _, name := range c.Telemetry.headerVars() {
		if _, cred, ok := strings.Cut(strings.TrimSpace(getenv(name)), " "); ok {
			add(cred)
		}
	}
	for _, s := range URLSecrets(getenv(baseURLVar)) {
		add(s)
	}
	return out
}

// baseURLVar is the variable that overrides [model] base_url.
const baseURLVar = "OPENAI_BASE_URL"

// URLSecrets are the secrets a URL holds: its password, and the value of
// each query parameter named as a secret (api-key, key, access_token…). A
// value that is no URL holds none; nor do the other parameters, such as
// api-version, which would be redacted in every text that holds them.
func URLSecrets(raw string) []string {
	if !strings.Contains(raw, "://") {
		return nil
	}
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return nil
	}
	var out []string
	if p, ok := u.User.Password(); ok && p != "" {
		out = append(out, p)
	}
	for name, values := range u.Query() {
		if isSecret(strings.ReplaceAll(strings.ToLower(name), "-", "_")) || strings.EqualFold(name, "apikey") {
			for _, v := range values {
				if v != "" {
					out = append(out, v)
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// SecretVars names the environment variables that hold secrets Hermes
// reads: OPENAI_API_KEY, every variable an X_env reference names, and
// those [telemetry] headers_env reads headers from.
func (c Config) SecretVars() []string {
	out := []string{modelKeyVar}
	eachEnvRef(reflect.ValueOf(&c).Elem(), "", func(_ string, ref, _ reflect.Value) {
		if name := ref.String(); name != "" && !slices.Contains(out, name) {
			out = append(out, name)
		}
	})
	for _, name := range c.Telemetry.headerVars() {
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

// eachSecret calls add with every secret's value set in v and the structs,
// slices of structs and string maps under it.
func eachSecret(v reflect.Value, add func(string)) {
	switch v.Kind() {
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Struct {
			for i := range v.Len() {
				eachSecret(v.Index(i), add)
			}
		}
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String || v.Type().Elem().Kind() != reflect.String {
			return
		}
		for it := v.MapRange(); it.Next(); {
			if isSecret(strings.ToLower(it.Key().String())) {
				add(it.Value().String())
			} else {
				addURL(it.Value().String(), add) // DATABASE_URL = "postgres://user:password@…"
			}
		}
	case reflect.Struct:
		for _, tf := range tomlFields(v.Type()) {
			name, f := tf.name, v.Field(tf.index)
			switch {
			case f.Kind() == reflect.String:
				if isSecret(name) {
					add(f.String())
				} else {
					addURL(f.String(), add)
				}
			default:
				eachSecret(f, add)
			}
		}
		for _, s := range sectionsOf(v) {
			eachSecret(s, add)
		}
	}
}

func addURL(raw string, add func(string)) {
	for _, s := range URLSecrets(raw) {
		add(s)
	}
}
