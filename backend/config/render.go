package config

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"hermes/backend/i18n"
)

// node is one table of hermes.toml, its settings and the tables under it,
// in the order Config declares them.
type node struct {
	key      string // dotted; "" for the top level
	array    bool   // an array of tables, such as [[tools.mcp]]
	named    bool   // tables by name, such as [prices."MODEL"]
	settings []setting
	tables   []*node
}

type setting struct {
	key, name string
	value     reflect.Value
}

// layout walks a config value into its tables. An array of tables has no
// default entries, so its node holds the zero value of one entry.
func layout(v reflect.Value, key string) *node {
	n := &node{key: key}
	t := v.Type()
	for i := range t.NumField() {
		name := tagName(t.Field(i))
		if name == "" {
			continue
		}
		full := joinKey(key, name)
		fv := v.Field(i)
		switch {
		case isTable(fv.Type()):
			n.tables = append(n.tables, layout(fv, full))
		case fv.Kind() == reflect.Slice && isTable(fv.Type().Elem()):
			entry := layout(reflect.Zero(fv.Type().Elem()), full)
			entry.array = true
			n.tables = append(n.tables, entry)
		case fv.Kind() == reflect.Map && isTable(fv.Type().Elem()):
			entry := layout(reflect.Zero(fv.Type().Elem()), full)
			entry.named = true
			n.tables = append(n.tables, entry)
		default:
			n.settings = append(n.settings, setting{full, name, fv})
		}
	}
	if b, ok := v.Interface().(Bot); ok {
		// The registered platforms' own keys, after those all share.
		b.eachSection(func(t reflect.Type, sv reflect.Value) {
			for i := range t.NumField() {
				if name := tagName(t.Field(i)); name != "" {
					n.settings = append(n.settings, setting{joinKey(key, name), name, sv.Field(i)})
				}
			}
		})
	}
	return n
}

// header is how an example entry of an array of tables or of tables by
// name opens.
func (n *node) header() string {
	if n.named {
		return fmt.Sprintf("[%s.%q]", n.key, "MODEL")
	}
	return "[[" + n.key + "]]"
}

func isTable(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && t != durationType && t != reflect.TypeFor[time.Time]()
}

func joinKey(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

// walk calls fn for n and every table under it, parents first.
func (n *node) walk(fn func(*node)) {
	fn(n)
	for _, c := range n.tables {
		c.walk(fn)
	}
}

// shown is what the documentation writes as a setting's value.
func (s setting) shown() string {
	if d := allDocs()[s.key]; d.Shown != nil && s.value.IsZero() {
		return tomlValue(reflect.ValueOf(d.Shown))
	}
	return tomlValue(s.value)
}

// tomlValue writes one value as it appears after "key = ". Maps are written
// inline, since a setting's line cannot hold a table header.
func tomlValue(v reflect.Value) string {
	switch v.Kind() {
	case reflect.Map:
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = bareOrQuoted(k.String()) + " = " + tomlValue(v.MapIndex(k))
		}
		if len(parts) == 0 {
			return "{}"
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	case reflect.Slice:
		if v.Len() == 0 {
			return "[]"
		}
	}
	b, err := toml.Marshal(map[string]any{"v": v.Interface()})
	if err != nil {
		// Every setting type of Config marshals; this would be a new type
		// that the documentation has to learn to write.
		panic(fmt.Sprintf("config: cannot document a value of type %s: %v", v.Type(), err))
	}
	return strings.TrimSpace(strings.TrimPrefix(string(b), "v = "))
}

func bareOrQuoted(k string) string {
	if k != "" && strings.Trim(k, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") == "" {
		return k
	}
	return tomlValue(reflect.ValueOf(k))
}

// DefaultFile is the commented default hermes.toml in language lang: every
// table and every key with its default and what it does. Only version is
// set; every other key is commented out, so a file written today still
// follows the defaults of a later Hermes wherever the user changed nothing.
func DefaultFile(lang i18n.Lang) []byte {
	var b strings.Builder
	for _, line := range strings.Split(i18n.In(lang, "config.file.header"), "\n") {
		b.WriteString(strings.TrimRight("# "+line, " ") + "\n")
	}
	layout(reflect.ValueOf(Default()), "").walk(func(n *node) {
		writeTable(&b, n, lang)
	})
	return []byte(b.String())
}

func writeTable(b *strings.Builder, n *node, lang i18n.Lang) {
	b.WriteString("\n")
	if n.key == "" {
		for _, s := range n.settings {
			fmt.Fprintf(b, "# %s\n%s = %s\n", docIn(s.key, lang), s.name, s.shown())
		}
		return
	}
	fmt.Fprintf(b, "# %s\n", docIn(n.key, lang))
	if n.array || n.named {
		// No entry exists by default: the whole table is an example.
		fmt.Fprintf(b, "# %s\n#   %s\n", i18n.In(lang, "config.file.example"), n.header())
		for _, s := range n.settings {
			fmt.Fprintf(b, "#   %s = %s   # %s\n", s.name, s.shown(), docIn(s.key, lang))
		}
		return
	}
	fmt.Fprintf(b, "[%s]\n", n.key)
	for _, s := range n.settings {
		fmt.Fprintf(b, "# %s\n# %s = %s\n", docIn(s.key, lang), s.name, s.shown())
	}
}

func docIn(key string, lang i18n.Lang) string {
	d := allDocs()[key]
	if lang == i18n.ZH && d.ZH != "" {
		return d.ZH
	}
	return d.EN
}

// Reference is the Markdown reference of hermes.toml in language lang, one
// table per section, for docs/config.md.
func Reference(lang i18n.Lang) string {
	var b strings.Builder
	layout(reflect.ValueOf(Default()), "").walk(func(n *node) {
		if len(n.settings) == 0 {
			return
		}
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		switch {
		case n.key == "":
		case n.array || n.named:
			fmt.Fprintf(&b, "`%s` — %s\n\n", n.header(), docIn(n.key, lang))
		default:
			fmt.Fprintf(&b, "`[%s]` — %s\n\n", n.key, docIn(n.key, lang))
		}
		head := "config.reference.head"
		if n.array || n.named {
			head = "config.reference.head_example"
		}
		b.WriteString(i18n.In(lang, head) + "\n|---|---|---|\n")
		for _, s := range n.settings {
			fmt.Fprintf(&b, "| `%s` | `%s` | %s |\n", s.name, strings.ReplaceAll(s.shown(), "|", `\|`), docIn(s.key, lang))
		}
	})
	return b.String()
}
