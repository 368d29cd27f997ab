package config

import (
	"reflect"
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

// ResolveEnv returns c with every X_env reference replaced by the value of
// the variable it names, read through getenv.
func (c Config) ResolveEnv(getenv func(string) string) Config {
	c.Bot.Sections = c.Bot.Sections.clone() // written below, and shared with the caller's
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
		if name := ref.String(); name != "" && !isEnvName(name) {
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
	walkEnvRefs(v, append(make([]string, 0, 32), prefix), fn)
}

// walkEnvRefs is eachEnvRef with the key's parts, joined only for a field
// that is a reference: a config is walked several times in a start, and
// most of its fields are not.
func walkEnvRefs(v reflect.Value, path []string, fn func(key string, ref, target reflect.Value)) {
	switch v.Kind() {
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			walkEnvRefs(v.Index(i), path, fn)
		}
		return
	case reflect.Struct:
	default:
		return
	}
	if v.Type() == durationType {
		return
	}
	for _, f := range tomlFields(v.Type()) {
		field := v.Field(f.index)
		switch {
		case f.envOf >= 0:
			fn(strings.Join(append(path, f.name), ""), field, v.Field(f.envOf))
		case !f.envRef:
			walkEnvRefs(field, append(path, f.name, "."), fn)
		}
	}
	// A platform's own keys are [bot]'s too.
	for _, s := range sectionsOf(v) {
		walkEnvRefs(s, path, fn)
	}
}

// tomlField is a struct field TOML reads: its index and key, and, for a
// string X_env, whether it is one (envRef) and the index of a string X
// beside it (envOf, else -1).
type tomlField struct {
	index, envOf int
	name         string
	envRef       bool
}

// fieldsOf keeps each struct type's tomlFields: a config is walked several
// times in a process's start (validated, its references resolved, its
// secrets listed), and a struct tag is parsed at each field of each walk.
var fieldsOf sync.Map // reflect.Type → []tomlField

// tomlFields returns the fields of struct type t that TOML reads, in order.
func tomlFields(t reflect.Type) []tomlField {
	if fs, ok := fieldsOf.Load(t); ok {
		return fs.([]tomlField)
	}
	var fs []tomlField
	byName := map[string]int{}
	for i := range t.NumField() {
		if name := tagName(t.Field(i)); name != "" {
			fs = append(fs, tomlField{index: i, envOf: -1, name: name})
			byName[name] = i
		}
	}
	for j, f := range fs {
		if base, ok := strings.CutSuffix(f.name, envSuffix); ok && t.Field(f.index).Type.Kind() == reflect.String {
			fs[j].envRef = true
			if i, ok := byName[base]; ok && t.Field(i).Type.Kind() == reflect.String {
				fs[j].envOf = i
			}
		}
	}
	fieldsOf.Store(t, fs)
	return fs
}

// tagName is the TOML key of a struct field, "" for one TOML leaves out.
func tagName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
	if name == "" || name == "-" || !f.IsExported() {
		return ""
	}
	return name
}
