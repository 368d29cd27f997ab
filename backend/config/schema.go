package config

import (
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"
)

// kind is the TOML type a setting takes.
type kind string

const (
	kindInteger  kind = "integer"
	kindFloat    kind = "float"
	kindString   kind = "string"
	kindBoolean  kind = "boolean"
	kindDuration kind = "duration"
	kindTable    kind = "table"
	kindArray    kind = "array"
	kindDatetime kind = "datetime"
)

func (k kind) accepts(v any) bool {
	switch v.(type) {
	case int64:
		return k == kindInteger || k == kindFloat
	case float64:
		return k == kindFloat
	case string:
		return k == kindString || k == kindDuration
	case bool:
		return k == kindBoolean
	case map[string]any:
		return k == kindTable
	case []any, []map[string]any:
		return k == kindArray
	}
	return false
}

// example is a value of kind k as it would be written for key.
func (k kind) example(key string) string {
	switch k {
	case kindInteger:
		return "25"
	case kindFloat:
		return "0.5"
	case kindBoolean:
		return "true"
	case kindDuration:
		return `"30s"`
	case kindTable:
		return "[" + key + "]"
	case kindArray:
		return `["a", "b"]`
	}
	return `"text"`
}

// kindOf names the TOML type of a parsed value.
func kindOf(v any) kind {
	switch v.(type) {
	case int64:
		return kindInteger
	case float64:
		return kindFloat
	case string:
		return kindString
	case bool:
		return kindBoolean
	case map[string]any:
		return kindTable
	case []any, []map[string]any:
		return kindArray
	}
	return kindDatetime
}

// schema maps the keys of one table to their settings. It is read off
// Config's toml tags, so a section added to Config is checked with no more
// code.
type schema map[string]field

// A table's schemas are read off its type when first needed: a file that
// leaves a section empty, as config init writes them, costs none of its
// reflection.
type field struct {
	kind   kind
	fields func() schema // for tables; nil for a table of any keys
	each   func() schema // for tables by name ([prices."MODEL"]): every entry's
}

// schemaOfType is schemaOf(t), read once it is first needed.
func schemaOfType(t reflect.Type) func() schema {
	return sync.OnceValue(func() schema { return schemaOf(t) })
}

// sub is the schema of a table's keys, nil for a table of any keys.
func (f field) sub() schema {
	if f.fields == nil {
		return nil
	}
	return f.fields()
}

// configSchema is Config's, read from its type once a file is checked.
var configSchema = sync.OnceValue(func() schema { return schemaOf(reflect.TypeFor[Config]()) })

var durationType = reflect.TypeFor[Duration]()

func schemaOf(t reflect.Type) schema {
	s := schema{}
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if name == "" || name == "-" || !f.IsExported() {
			continue
		}
		s[name] = fieldOf(f.Type)
	}
	if t == reflect.TypeFor[Bot]() {
		// The registered platforms' own keys are [bot]'s.
		for _, k := range botKeyTypes() {
			maps.Copy(s, schemaOf(k))
		}
	}
	return s
}

func fieldOf(t reflect.Type) field {
	switch {
	case t == durationType || t == reflect.TypeFor[time.Duration]():
		return field{kind: kindDuration}
	case t == reflect.TypeFor[time.Time]():
		return field{kind: kindDatetime}
	}
	switch t.Kind() {
	case reflect.Struct:
		return field{kind: kindTable, fields: schemaOfType(t)}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return field{kind: kindInteger}
	case reflect.Float32, reflect.Float64:
		return field{kind: kindFloat}
	case reflect.Bool:
		return field{kind: kindBoolean}
	case reflect.Slice, reflect.Array:
		return field{kind: kindArray}
	case reflect.Map:
		if t.Elem().Kind() == reflect.Struct {
			return field{kind: kindTable, fields: func() schema { return schema{} }, each: schemaOfType(t.Elem())}
		}
		// A table of strings, such as [telemetry] headers_env.
		return field{kind: kindTable}
	}
	return field{kind: kindString}
}

// lookup returns the schema of the table at path, or nil if there is none.
func (s schema) lookup(path []string) schema {
	for i := 0; i < len(path); i++ {
		f, ok := s[path[i]]
		if !ok || f.kind != kindTable {
			return nil
		}
		s = f.sub()
		if f.each != nil && i+1 < len(path) {
			s, i = f.each(), i+1 // the entry's name
		}
	}
	return s
}

func (s schema) names() []string {
	names := make([]string, 0, len(s))
	for k := range s {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

// Closest returns the candidate nearest to name by edit distance (a swap of
// two letters counts as one edit), or "" when none is near enough to be the
// likely intent: what "did you mean" offers for a misspelt key.
func Closest(name string, candidates []string) string {
	best, bestDist := "", 0
	for _, c := range candidates {
		d := editDistance(strings.ToLower(name), c)
		if best == "" || d < bestDist {
			best, bestDist = c, d
		}
	}
	if best == "" || bestDist > max(2, len(name)/3) {
		return ""
	}
	return best
}

// editDistance is the optimal string alignment distance over bytes.
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
