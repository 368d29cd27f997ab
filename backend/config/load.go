package config

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/BurntSushi/toml"

	"hermes/backend/i18n"
)

// Load reads the config at path over Default(): a missing file gives the
// defaults, and every value the file gives overrides its default. A file from
// an older version is upgraded in memory first (Migrate upgrades it on disk).
// A mistake is an error naming the file, the line and column, and what to
// write instead: syntax (ErrSyntax), an unknown key with the closest valid one
// (ErrUnknownKey), a value of the wrong type with the expected one
// (ErrWrongType), or a backslash escape that mangled a Windows path
// (ErrEscapedPath). A file larger (ErrTooLarge) or nesting deeper
// (ErrTooDeep) than any config is refused before it is parsed. Every
// mistake is reported at once, in file order, and the Config is then the
// zero value. Load does not check ranges; Validate does, once flags have
// been applied.
func Load(path string) (Config, error) {
	cfg, _, err := load(path)
	if err != nil {
		return Config{}, err
	}
	return cfg, nil
}

// load is Load that reads on past a mistake where it can: a value of the
// wrong type is left at its default, so the unknown keys and mangled paths
// are found too, and Check can validate the rest. It also returns the
// document, to place later problems in the file; nil when there is no file.
func load(path string) (Config, *document, error) {
	raw, err := readFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Default(), nil, nil
	case errors.Is(err, ErrTooLarge):
		return Config{}, nil, err
	case err != nil:
		return Config{}, nil, i18n.Wrap(err, "config.read", path, err)
	}
	return parseOnce(path, raw)
}

// parse is load's work on the bytes read from path.
func parse(path string, raw []byte) (Config, *document, error) {
	cfg := Default()
	src := text(raw)
	if err := checkNesting(path, src); err != nil {
		return Config{}, nil, err
	}
	src, _, p, err := upgradeMeasured(src, migrations)
	if err != nil {
		return Config{}, nil, i18n.Wrap(err, "config.migrate", path, err)
	}
	if p == nil {
		if p, err = parseText(src); err != nil {
			return Config{}, nil, syntaxError(path, src, err)
		}
	}
	tree := p.tree()
	doc := newDocument(path, src)
	// checkTypes removes the values it reports from tree, so that what is
	// left decodes; the file as parsed is decoded when nothing was removed.
	problems := doc.checkTypes(tree)
	if len(problems) > 0 {
		b, err := toml.Marshal(tree)
		if err == nil {
			p, err = parseText(string(b))
		}
		if err != nil {
			return Config{}, nil, fmt.Errorf("decode config %s: %w", path, err)
		}
	}
	undecoded, err := p.decodeConfig(&cfg)
	if err != nil {
		// checkTypes admits only values the decoder takes; this is a guard
		// against the two disagreeing, not an expected path.
		return Config{}, nil, fmt.Errorf("decode config %s: %w", path, err)
	}
	problems = append(problems, doc.unknownKeys(undecoded)...)
	problems = append(problems, doc.escapedPaths(tree)...)
	return cfg, doc, joinLocated(problems)
}

// text is the config file as it is parsed and positions are counted in:
// without a byte-order mark, which is not a column in any editor, and
// ending with a line break, so that a mistake at the end of the file is
// placed at the end of its last line like any other line's end.
func text(raw []byte) string {
	s := strings.TrimPrefix(string(raw), "\ufeff")
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return s
}

func syntaxError(path, src string, err error) error {
	var pe toml.ParseError
	if !errors.As(err, &pe) {
		return fmt.Errorf("decode config %s: %w: %w", path, ErrSyntax, err)
	}
	p := errorPos(src, pe.Position)
	if line := lineAt(src, p.line); hasEscapeInDoubleQuotes(line) {
		return i18n.Wrap(ErrSyntax, "config.syntax_path", path, p, pe.Message, msg("config.hint.windows_path"))
	}
	return i18n.Wrap(ErrSyntax, "config.syntax", path, p, pe.Message)
}

// document is a config file being checked: its name, and where each key is.
type document struct {
	path string
	src  string
	// keyAt is where each key is, found when a problem is first placed:
	// a file without problems never needs it.
	keyAt func() map[string]pos
}

func newDocument(path, src string) *document {
	return &document{path: path, src: src, keyAt: sync.OnceValue(func() map[string]pos { return keyPositions(src) })}
}

// at is where a dotted key is written; a key inside an inline table is found
// at its parent's line.
func (d *document) at(key string) pos {
	for k := key; k != ""; {
		if p, ok := d.keyAt()[k]; ok {
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

// checkTypes compares the parsed tree with the schema, reports every value
// of the wrong type and removes it from the tree.
func (d *document) checkTypes(tree map[string]any) []located {
	var errs []located
	d.walkTypes(tree, "", configSchema(), &errs)
	return errs
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
		if sub, ok := v.(map[string]any); ok && f.kind == kindTable {
			switch {
			case len(sub) == 0: // nothing to check, no schema to read
			case f.each != nil:
				// Tables by name: every entry is checked against one schema.
				d.walkTypes(sub, full+".", entries(sub, f.each()), errs)
			default:
				d.walkTypes(sub, full+".", f.sub(), errs)
			}
			continue
		}
		if f.kind.accepts(v) {
			if str, ok := v.(string); ok && f.kind == kindDuration {
				if _, err := time.ParseDuration(str); err != nil {
					at := d.at(full)
					*errs = append(*errs, located{at, i18n.Wrap(ErrWrongType, "config.bad_duration", d.path, at, display(full), str)})
					delete(tree, k)
				}
			}
			continue
		}
		at := d.at(full) // placed only when wrong: a file without mistakes needs no positions
		*errs = append(*errs, located{at, i18n.Wrap(ErrWrongType, "config.wrong_type",
			d.path, at, display(full), msg("config.type."+string(f.kind)), f.kind.example(full), msg("config.type."+string(kindOf(v))))})
		delete(tree, k)
	}
}

// entries is the schema of a table of tables by name: each of its keys is a
// table of schema each.
func entries(tree map[string]any, each schema) schema {
	s := schema{}
	for k := range tree {
		s[k] = field{kind: kindTable, fields: func() schema { return each }}
	}
	return s
}

// unknownKeys reports the keys no setting took, each with the closest valid
// key of its table. A key under an unknown table is covered by the table.
func (d *document) unknownKeys(undecoded []toml.Key) []located {
	var errs []located
	reported := map[string]bool{}
	for _, k := range undecoded {
		if len(k) > 1 && reported[toml.Key(k[:len(k)-1]).String()] {
			reported[k.String()] = true
			continue
		}
		reported[k.String()] = true
		table, name := configSchema().lookup(k[:len(k)-1]), k[len(k)-1]
		full := strings.Join(k, ".")
		at := d.at(full)
		if best := Closest(name, table.names()); best != "" {
			errs = append(errs, located{at, i18n.Wrap(ErrUnknownKey, "config.unknown_key", d.path, at, display(full), best)})
		} else {
			errs = append(errs, located{at, i18n.Wrap(ErrUnknownKey, "config.unknown_key_list", d.path, at, display(full), strings.Join(table.names(), ", "))})
		}
	}
	return errs
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
