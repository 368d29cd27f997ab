package config

import (
	"net/url"
	"reflect"
	"strings"
)

// redacted replaces a secret's value wherever a config is shown.
const redacted = "********"

// isSecret says whether a key holds a secret by its name: api_key, secret,
// webhook_secret, encoding_aes_key, token, password…; the X_env references
// name variables and are not secrets, nor is a public key.
func isSecret(name string) bool {
	if strings.HasSuffix(name, envSuffix) || name == "public_key" {
		return false
	}
	for _, s := range []string{"key", "secret", "token", "password"} {
		if name == s || strings.HasSuffix(name, "_"+s) {
			return true
		}
	}
	return false
}

// Redacted returns c with every secret that is set replaced by asterisks,
// for showing a config to a person (`hermes config show`, a settings page).
// A section's secret is recognised by its key's name, so a new section's
// "secret" or "*_token" is covered with no more code.
func (c Config) Redacted() Config {
	redact(reflect.ValueOf(&c).Elem())
	return c
}

func redact(v reflect.Value) {
	switch v.Kind() {
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Struct {
			// The slice is shared with the caller's Config: copy before writing.
			fresh := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
			reflect.Copy(fresh, v)
			v.Set(fresh)
			for i := range v.Len() {
				redact(v.Index(i))
			}
		}
	case reflect.Map:
		// An environment table for a tool server, say: GITHUB_TOKEN is a secret.
		if v.IsNil() || v.Type().Key().Kind() != reflect.String || v.Type().Elem().Kind() != reflect.String {
			return
		}
		fresh := reflect.MakeMapWithSize(v.Type(), v.Len())
		for it := v.MapRange(); it.Next(); {
			val := it.Value()
			if isSecret(strings.ToLower(it.Key().String())) && val.String() != "" {
				val = reflect.ValueOf(redacted).Convert(v.Type().Elem())
			}
			fresh.SetMapIndex(it.Key(), val)
		}
		v.Set(fresh)
	case reflect.Struct:
		for i := range v.NumField() {
			name := tagName(v.Type().Field(i))
			f := v.Field(i)
			switch {
			case name == "":
			case f.Kind() == reflect.String && isSecret(name) && f.String() != "":
				f.SetString(redacted)
			default:
				redact(f)
			}
		}
		if v.Type() == reflect.TypeFor[Bot]() {
			// The sections are shared with the caller's Config: copy before writing.
			sections := v.Addr().Interface().(*Bot)
			sections.Sections = sections.Sections.clone()
			for _, s := range sectionsOf(v) {
				redact(s)
			}
		}
	}
}

// shownURL is a base URL as an error may show it: its password and the
// value of every query parameter are masked, since gateways take keys there
// (?api-key=…).
func shownURL(raw string) string {
	base, query, hasQuery := strings.Cut(raw, "?")
	if u, err := url.Parse(base); err == nil && u.User != nil {
		base = u.Redacted()
	}
	if !hasQuery {
		return base
	}
	params := strings.Split(query, "&")
	for i, p := range params {
		if k, v, ok := strings.Cut(p, "="); ok && v != "" {
			params[i] = k + "=xxxxx"
		}
	}
	return base + "?" + strings.Join(params, "&")
}
