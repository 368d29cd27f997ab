package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"hermes/backend/i18n"
)

// Load reads the config at path over Default(): a missing file gives the
// defaults, and every value the file gives overrides its default. A mistake is
// an error naming the file, the line and column, and what to write instead:
// syntax (ErrSyntax), an unknown key with the closest valid one
// (ErrUnknownKey), a value of the wrong type with the expected one
// (ErrWrongType), or a backslash escape that mangled a Windows path
// (ErrEscapedPath); the Config is then the zero value. Load does not check
// ranges; Validate does, once flags have been applied.
func Load(path string) (Config, error) {
	cfg := Default()
	raw, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return cfg, nil
	}
	if err != nil {
		return Config{}, i18n.Wrap(err, "config.read", path, err)
	}
	src := string(raw)

	var tree map[string]any
	if _, err := toml.Decode(src, &tree); err != nil {
		return Config{}, syntaxError(path, src, err)
	}
	doc := newDocument(path, src)
	if err := doc.checkTypes(tree); err != nil {
		return Config{}, err
	}
	md, err := toml.Decode(src, &cfg)
	if err != nil {
		// checkTypes admits only values the decoder takes; this is a guard
		// against the two disagreeing, not an expected path.
		return Config{}, fmt.Errorf("decode config %s: %w", path, err)
	}
	if err := doc.unknownKeys(md.Undecoded()); err != nil {
		return Config{}, err
	}
	if err := doc.escapedStrings(tree); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

func syntaxError(path, src string, err error) error {
	var pe toml.ParseError
	if !errors.As(err, &pe) {
		return fmt.Errorf("decode config %s: %w: %w", path, ErrSyntax, err)
	}
	p := pos{pe.Position.Line, pe.Position.Col}
	if line := lineAt(src, p.line); looksLikeEscapedPath(line) {
		return i18n.Wrap(ErrSyntax, "config.syntax_path", path, p, pe.Message, msg("config.hint.windows_path"))
	}
	return i18n.Wrap(ErrSyntax, "config.syntax", path, p, pe.Message)
}

// looksLikeEscapedPath reports a double-quoted value with a backslash in it,
// the usual way a Windows path goes wrong.
func looksLikeEscapedPath(line string) bool {
	_, value, ok := strings.Cut(line, "=")
	value = strings.TrimSpace(value)
	return ok && strings.HasPrefix(value, `"`) && strings.Contains(value, `\`)
}

// document is a config file being checked: its name, and where each key is.
type document struct {
	path string
	src  string
	keys map[string]pos
}

func newDocument(path, src string) *document {
	return &document{path: path, src: src, keys: keyPositions(src)}
}

// at is where a dotted key is written; a key inside an inline table is found
// at its parent's line.
func (d *document) at(key string) pos {
	for k := key; k != ""; {
		if p, ok := d.keys[k]; ok {
			return p
		}
		i := strings.LastIndexByte(k, '.')
		if i < 0 {
			break
		}
		k = k[:i]
	}
	return pos{}
}

// checkTypes compares the parsed tree with the schema and reports every value
// of the wrong type, in file order.
func (d *document) checkTypes(tree map[string]any) error {
	var errs []located
	d.walkTypes(tree, "", configSchema, &errs)
	return joinLocated(errs)
}

type located struct {
	at  pos
	err error
}

func joinLocated(errs []located) error {
	if len(errs) == 0 {
		return nil
	}
	slices.SortStableFunc(errs, func(a, b located) int { return a.at.line - b.at.line })
	out := make([]error, len(errs))
	for i, e := range errs {
		out[i] = e.err
	}
	return errors.Join(out...)
}

func (d *document) walkTypes(tree map[string]any, prefix string, s schema, errs *[]located) {
	for k, v := range tree {
		f, ok := s[k]
		if !ok {
			continue // unknown keys are reported after decoding
		}
		full := prefix + k
		at := d.at(full)
		if f.kind == kindTable {
			if sub, ok := v.(map[string]any); ok {
				d.walkTypes(sub, full+".", f.fields, errs)
				continue
			}
		}
		if f.kind.accepts(v) {
			if str, ok := v.(string); ok && f.kind == kindDuration {
				if _, err := time.ParseDuration(str); err != nil {
					*errs = append(*errs, located{at, i18n.Wrap(ErrWrongType, "config.bad_duration", d.path, at, display(full), str)})
				}
			}
			continue
		}
		*errs = append(*errs, located{at, i18n.Wrap(ErrWrongType, "config.wrong_type",
			d.path, at, display(full), msg("config.type."+string(f.kind)), f.kind.example(full), msg("config.type."+string(kindOf(v))))})
	}
}

// unknownKeys reports the keys no setting took, each with the closest valid
// key of its table. A key under an unknown table is covered by the table.
func (d *document) unknownKeys(undecoded []toml.Key) error {
	var errs []located
	reported := map[string]bool{}
	for _, k := range undecoded {
		if len(k) > 1 && reported[toml.Key(k[:len(k)-1]).String()] {
			reported[k.String()] = true
			continue
		}
		reported[k.String()] = true
		table, name := configSchema.lookup(k[:len(k)-1]), k[len(k)-1]
		full := strings.Join(k, ".")
		at := d.at(full)
		if best := closest(name, table.names()); best != "" {
			errs = append(errs, located{at, i18n.Wrap(ErrUnknownKey, "config.unknown_key", d.path, at, display(full), best)})
		} else {
			errs = append(errs, located{at, i18n.Wrap(ErrUnknownKey, "config.unknown_key_list", d.path, at, display(full), strings.Join(table.names(), ", "))})
		}
	}
	return joinLocated(errs)
}

// escapedStrings reports strings that a backslash escape in double quotes
// filled with control characters, as "C:\temp" holds a tab: a path written
// the Windows way. Newlines in a multi-line string are left alone.
func (d *document) escapedStrings(tree map[string]any) error {
	var errs []located
	var walk func(map[string]any, string)
	walk = func(m map[string]any, prefix string) {
		for k, v := range m {
			switch v := v.(type) {
			case map[string]any:
				walk(v, prefix+k+".")
			case string:
				at := d.at(prefix + k)
				if i := strings.IndexFunc(v, isControl); i >= 0 && looksLikeEscapedPath(lineAt(d.src, at.line)) {
					errs = append(errs, located{at, i18n.Wrap(ErrEscapedPath, "config.escaped_path",
						d.path, at, display(prefix+k), string(v[i]), msg("config.hint.windows_path"))})
				}
			}
		}
	}
	walk(tree, "")
	return joinLocated(errs)
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

// display writes a dotted key as the user sees it in the file: "[model] modle".
func display(full string) string {
	if i := strings.LastIndexByte(full, '.'); i >= 0 {
		return "[" + full[:i] + "] " + full[i+1:]
	}
	return full
}

func lineAt(src string, n int) string {
	for i, line := range strings.Split(src, "\n") {
		if i+1 == n {
			return line
		}
	}
	return ""
}

// pos is a place in the config file, rendered in the current language.
type pos struct{ line, col int }

func (p pos) String() string { return i18n.T("config.pos", p.line, p.col) }

// msg is a catalog message rendered when the error that holds it is printed,
// so it comes out in the same language as the rest.
type msg string

func (m msg) String() string { return i18n.T(string(m)) }
