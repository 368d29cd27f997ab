package toolbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// coercion collects what validation found: the problems the model must fix,
// and whether any value had to be converted to fit the schema.
type coercion struct {
	problems []string
	repaired bool
}

func (c *coercion) fail(at, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if at != "" {
		msg = fmt.Sprintf("field %q: %s", at, msg)
	}
	c.problems = append(c.problems, msg)
}

// decodeJSON decodes one JSON value, keeping numbers exact as json.Number.
func decodeJSON(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("more than one JSON value")
	}
	return v, nil
}

// encodeJSON writes v as compact JSON with sorted object keys and without
// HTML escaping, so equal arguments always have the same text.
func encodeJSON(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// coerce validates v against s and returns it converted where a conversion
// is safe: a string holding a number or boolean, a number where a string is
// wanted, a single value where an array is wanted, a string holding the JSON
// of a wanted object or array, a case slip in an enum value. at names the
// value for messages ("" is the arguments object itself).
func (s *schema) coerce(v any, at string, c *coercion) any {
	if len(s.Types) > 0 && !s.allows(v) {
		converted, ok := s.convert(v)
		if !ok {
			c.fail(at, "expected %s, got %s", strings.Join(s.Types, " or "), describe(v))
			return v
		}
		v = converted
		c.repaired = true
	}
	switch x := v.(type) {
	case string:
		s.checkString(x, at, c)
	case json.Number:
		v = s.checkNumber(x, at, c)
	case []any:
		if s.Items != nil {
			for i, item := range x {
				x[i] = s.Items.coerce(item, fmt.Sprintf("%s[%d]", at, i), c)
			}
		}
	case map[string]any:
		s.checkObject(x, at, c)
	}
	if s.Enum != nil {
		v = s.checkEnum(v, at, c)
	}
	return v
}

// allows reports whether v already has one of the schema's types.
func (s *schema) allows(v any) bool {
	if len(s.Types) == 0 {
		return true
	}
	for _, t := range s.Types {
		if hasType(v, t) {
			return true
		}
	}
	return false
}

func hasType(v any, t string) bool {
	switch x := v.(type) {
	case nil:
		return t == "null"
	case bool:
		return t == "boolean"
	case string:
		return t == "string"
	case json.Number:
		if t == "integer" {
			f, err := x.Float64()
			return err == nil && f == math.Trunc(f)
		}
		return t == "number"
	case []any:
		return t == "array"
	case map[string]any:
		return t == "object"
	}
	return false
}

// convert tries the schema's types in order and returns v as the first one
// it can be converted to without losing meaning.
func (s *schema) convert(v any) (any, bool) {
	for _, t := range s.Types {
		switch x := v.(type) {
		case string:
			trimmed := strings.TrimSpace(x)
			switch t {
			case "integer", "number":
				f, err := strconv.ParseFloat(trimmed, 64)
				if err != nil || math.IsInf(f, 0) || math.IsNaN(f) || (t == "integer" && f != math.Trunc(f)) {
					continue
				}
				if t == "integer" {
					if n, err := strconv.ParseInt(trimmed, 10, 64); err == nil {
						return json.Number(strconv.FormatInt(n, 10)), true
					}
				}
				return json.Number(strconv.FormatFloat(f, 'g', -1, 64)), true
			case "boolean":
				switch strings.ToLower(trimmed) {
				case "true":
					return true, true
				case "false":
					return false, true
				}
			case "array", "object":
				if j, err := decodeJSON([]byte(trimmed)); err == nil && hasType(j, t) {
					return j, true
				}
				if t == "array" {
					return []any{x}, true
				}
			}
		case json.Number:
			switch t {
			case "string":
				return x.String(), true
			case "array":
				return []any{x}, true
			}
		case bool, map[string]any:
			if t == "array" {
				return []any{x}, true
			}
		}
	}
	return nil, false
}

func (s *schema) checkString(x, at string, c *coercion) {
	n := utf8.RuneCountInString(x)
	if s.MinLength != nil && n < *s.MinLength {
		c.fail(at, "is %d characters long, shorter than the minimum %d", n, *s.MinLength)
	}
	if s.MaxLength != nil && n > *s.MaxLength {
		c.fail(at, "is %d characters long, longer than the maximum %d", n, *s.MaxLength)
	}
	switch s.Format {
	case "date":
		if _, err := time.Parse(time.DateOnly, x); err != nil {
			c.fail(at, "%s is not a date in the format YYYY-MM-DD", preview(x))
		}
	case "date-time":
		if _, err := time.Parse(time.RFC3339, x); err != nil {
			c.fail(at, "%s is not a date-time in the format YYYY-MM-DDTHH:MM:SSZ (RFC 3339, with a time zone)", preview(x))
		}
	}
}

// checkNumber checks the bounds, and writes integers without a fraction so
// that they decode into Go integer fields.
func (s *schema) checkNumber(x json.Number, at string, c *coercion) json.Number {
	f, err := x.Float64()
	if err != nil {
		c.fail(at, "%s is not a usable number", x)
		return x
	}
	if s.Minimum != nil && f < *s.Minimum {
		c.fail(at, "%s is less than the minimum %s", x, formatFloat(*s.Minimum))
	}
	if s.Maximum != nil && f > *s.Maximum {
		c.fail(at, "%s is greater than the maximum %s", x, formatFloat(*s.Maximum))
	}
	if slices.Contains(s.Types, "integer") && !slices.Contains(s.Types, "number") {
		if _, err := x.Int64(); err != nil && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			return json.Number(strconv.FormatInt(int64(f), 10))
		}
	}
	return x
}

func (s *schema) checkObject(obj map[string]any, at string, c *coercion) {
	for _, name := range s.Required {
		if v, ok := obj[name]; !ok || (v == nil && !s.property(name).allows(nil)) {
			c.fail("", "missing required field %q", join(at, name))
		}
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v := obj[k]
		prop, known := s.Properties[k]
		switch {
		case known && v == nil && !prop.allows(nil):
			// A null for a field the schema does not let be null means
			// "not given"; required fields were reported above.
			delete(obj, k)
			c.repaired = true
		case known:
			obj[k] = prop.coerce(v, join(at, k), c)
		case s.Extra != nil:
			obj[k] = s.Extra.coerce(v, join(at, k), c)
		case s.Closed:
			c.fail("", "unknown field %q; the known fields are %s", join(at, k), quoteList(s.Order))
		}
	}
}

// property is the schema of a named property; one that the schema does not
// describe accepts anything.
func (s *schema) property(name string) *schema {
	if p := s.Properties[name]; p != nil {
		return p
	}
	return &schema{}
}

func (s *schema) checkEnum(v any, at string, c *coercion) any {
	for _, e := range s.Enum {
		if sameValue(v, e) {
			return v
		}
	}
	if str, ok := v.(string); ok {
		var match []string
		for _, e := range s.Enum {
			if es, ok := e.(string); ok && strings.EqualFold(es, strings.TrimSpace(str)) {
				match = append(match, es)
			}
		}
		if len(match) == 1 {
			c.repaired = true
			return match[0]
		}
	}
	options := make([]string, len(s.Enum))
	for i, e := range s.Enum {
		options[i] = preview(e)
	}
	c.fail(at, "%s is not one of %s", preview(v), strings.Join(options, ", "))
	return v
}

func sameValue(a, b any) bool {
	an, aok := a.(json.Number)
	bn, bok := b.(json.Number)
	if aok && bok {
		af, err1 := an.Float64()
		bf, err2 := bn.Float64()
		return err1 == nil && err2 == nil && af == bf
	}
	ja, err1 := encodeJSON(a)
	jb, err2 := encodeJSON(b)
	return err1 == nil && err2 == nil && bytes.Equal(ja, jb)
}

func join(at, name string) string {
	if at == "" {
		return name
	}
	return at + "." + name
}

// describe names a value's JSON type and shows it, for "expected X, got Y".
func describe(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean " + preview(v)
	case string:
		return "string " + preview(v)
	case json.Number:
		return "number " + preview(v)
	case []any:
		return "an array"
	}
	return "an object"
}

// preview shows a value as JSON, cut short so that an error stays readable.
func preview(v any) string {
	b, err := encodeJSON(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	const limit = 60
	if s := string(b); utf8.RuneCountInString(s) > limit {
		return string([]rune(s)[:limit]) + "…"
	}
	return string(b)
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	if len(q) == 0 {
		return "none"
	}
	return strings.Join(q, ", ")
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
