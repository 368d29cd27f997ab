package config

import (
	"reflect"
	"regexp"
	"strings"
	"sync"

	"hermes/backend/i18n"
)

// Secrets as environment references. Any string key X may be given instead
// by a key X_env in the same table that names an environment variable
// ("api_key_env = \"DEEPSEEK_API_KEY\""), so the file can be shared and
// committed without the secret in it. The rule is read off the toml tags, so
// a section that declares `Secret string `toml:"secret"`` and
// `SecretEnv string `toml:"secret_env"`` gets it with no more code.
//
// A reference, once written, always wins, even when the variable is unset:
// falling back to the value in the file (or, for the model, to
// OPENAI_API_KEY) could send one service's secret to another.

const envSuffix = "_env"

var envName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })

// ResolveEnv returns c with every X_env reference replaced by the value of
// the variable it names, read through getenv.
func (c Config) ResolveEnv(getenv func(string) string) Config {
	eachEnvRef(reflect.ValueOf(&c).Elem(), "", func(_ string, ref, target reflect.Value) {
		if name := ref.String(); name != "" {
			target.SetString(getenv(name))
		}
	})
	return c
}

// validateEnvRefs reports references that are not variable names, the usual
// sign that the secret itself was pasted there. The message never repeats
// the value, since it may be that secret.
func (c Config) validateEnvRefs() []error {
	var errs []error
	eachEnvRef(reflect.ValueOf(&c).Elem(), "", func(key string, ref, _ reflect.Value) {
		if name := ref.String(); name != "" && !envName().MatchString(name) {
			example := strings.ToUpper(strings.NewReplacer(".", "_").Replace(strings.TrimSuffix(key, envSuffix)))
			errs = append(errs, i18n.Wrap(ErrInvalid, "config.invalid.env_ref", display(key), example))
		}
	})
	return errs
}

// eachEnvRef calls fn for every string field X_env beside a string field X,
// in v and the structs and slices of structs under it; key is X_env's
// dotted key.
func eachEnvRef(v reflect.Value, prefix string, fn func(key string, ref, target reflect.Value)) {
	switch v.Kind() {
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			eachEnvRef(v.Index(i), prefix, fn)
		}
		return
	case reflect.Struct:
	default:
		return
	}
	if v.Type() == durationType {
		return
	}
	byName := map[string]reflect.Value{}
	for i := range v.NumField() {
		if name := tagName(v.Type().Field(i)); name != "" {
			byName[name] = v.Field(i)
		}
	}
	for i := range v.NumField() {
		name := tagName(v.Type().Field(i))
		if name == "" {
			continue
		}
		field := v.Field(i)
		if base, ok := strings.CutSuffix(name, envSuffix); ok && field.Kind() == reflect.String {
			if target, ok := byName[base]; ok && target.Kind() == reflect.String {
				fn(prefix+name, field, target)
			}
			continue
		}
		eachEnvRef(field, prefix+name+".", fn)
	}
}

// tagName is the TOML key of a struct field, "" for one TOML leaves out.
func tagName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
	if name == "" || name == "-" || !f.IsExported() {
		return ""
	}
	return name
}
