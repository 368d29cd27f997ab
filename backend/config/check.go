package config

import (
	"os"
	"reflect"
	"strings"

	"hermes/backend/i18n"
)

// Check reads the config at path and returns every problem in it, each a
// sentence with its line and column and what to do: the mistakes Load
// reports, then the values Validate finds out of range, placed at the line
// that sets them. A valid file gives nil. Unlike Load, Check reports a
// missing file, since it was asked about that file.
func Check(path string) []error {
	_, _, problems := CheckLoad(path)
	return problems
}

// CheckLoad is Check that also returns what Load would: the config, and
// whether it loaded (a missing file gives the defaults, as Load does).
// `hermes config check` reads the file once for both.
func CheckLoad(path string) (cfg Config, loaded bool, problems []error) {
	if _, statErr := os.Stat(path); statErr != nil {
		cfg, err := Load(path)
		return cfg, err == nil, []error{i18n.Wrap(statErr, "config.check.missing", path)}
	}
	partial, doc, err := load(path)
	if err == nil {
		cfg, loaded = partial, true
	}
	problems = unjoin(err)
	if doc == nil {
		return cfg, loaded, problems // unreadable, not TOML, or not upgradable: nothing more to learn
	}
	for _, e := range unjoin(partial.Validate()) {
		problems = append(problems, doc.place(e))
	}
	return cfg, loaded, problems
}

// unjoin lists the errors that errors.Join (also under an i18n wrapper)
// put together.
func unjoin(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, unjoin(e)...)
		}
		return out
	}
	return []error{err}
}

// place puts the position of the key a Validate message is about in front of
// it. Validate's messages name their key as the file shows it ("[agent]
// max_iterations"), in both languages, so the key is found in the text; a
// top-level key only when the message starts with it, since a bare word such
// as "version" also appears in prose.
func (d *document) place(err error) error {
	text, best := err.Error(), ""
	layout(reflect.ValueOf(Default()), "").walk(func(n *node) {
		for _, s := range n.settings {
			shown := display(s.key)
			var found bool
			if n.key == "" {
				found = strings.HasPrefix(text, shown+" ")
			} else {
				found = strings.Contains(text, shown)
			}
			if found && len(s.key) > len(best) {
				best = s.key
			}
		}
	})
	if p, ok := d.keyAt()[best]; ok && best != "" {
		return i18n.Wrap(err, "config.at", d.path, p, err)
	}
	return i18n.Wrap(err, "config.in", d.path, err)
}
