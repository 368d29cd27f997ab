package toolbox

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"hermes/backend/i18n"
)

// schema is the subset of JSON Schema that Hermes enforces: type (one or a
// list, integer included), properties, required, additionalProperties,
// enum, items, minimum/maximum, minLength/maxLength and the formats date and
// date-time. Other keywords are passed to the model but not enforced.
type schema struct {
	Types       []string
	Description string
	Format      string
	Enum        []any // values decoded with json.Number
	Default     json.RawMessage
	Minimum     *float64
	Maximum     *float64
	MinLength   *int
	MaxLength   *int
	Items       *schema
	Properties  map[string]*schema
	Order       []string // property names in the order they are shown
	Required    []string
	Closed      bool    // additionalProperties: false
	Extra       *schema // additionalProperties given as a schema
}

var knownTypes = []string{"string", "integer", "number", "boolean", "array", "object", "null"}

// schemaJSON is the wire form that schema decodes from.
type schemaJSON struct {
	Type                 json.RawMessage    `json:"type"`
	Description          string             `json:"description"`
	Format               string             `json:"format"`
	Enum                 []any              `json:"enum"`
	Default              json.RawMessage    `json:"default"`
	Minimum              *float64           `json:"minimum"`
	Maximum              *float64           `json:"maximum"`
	MinLength            *int               `json:"minLength"`
	MaxLength            *int               `json:"maxLength"`
	Items                *schema            `json:"items"`
	Properties           map[string]*schema `json:"properties"`
	Required             []string           `json:"required"`
	AdditionalProperties json.RawMessage    `json:"additionalProperties"`
}

// parseSchema decodes and checks a tool's parameter schema, which must be
// of type object.
func parseSchema(raw json.RawMessage) (*schema, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, i18n.Errorf("toolbox.schema.none")
	}
	var s schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, i18n.Wrap(err, "toolbox.schema.not_object", err)
	}
	if !slices.Equal(s.Types, []string{"object"}) {
		return nil, i18n.Errorf("toolbox.schema.type_object")
	}
	if err := s.check("parameters"); err != nil {
		return nil, err
	}
	return &s, nil
}

func (s *schema) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var w schemaJSON
	if err := dec.Decode(&w); err != nil {
		return err
	}
	*s = schema{
		Description: w.Description, Format: w.Format, Enum: w.Enum, Default: w.Default,
		Minimum: w.Minimum, Maximum: w.Maximum, MinLength: w.MinLength, MaxLength: w.MaxLength,
		Items: w.Items, Properties: w.Properties, Required: w.Required,
	}
	if len(w.Type) > 0 {
		var one string
		if err := json.Unmarshal(w.Type, &one); err == nil {
			s.Types = []string{one}
		} else if err := json.Unmarshal(w.Type, &s.Types); err != nil {
			return i18n.Errorf("toolbox.schema.type")
		}
	}
	for name := range s.Properties {
		s.Order = append(s.Order, name)
	}
	slices.Sort(s.Order)
	switch strings.TrimSpace(string(w.AdditionalProperties)) {
	case "false":
		s.Closed = true
	case "", "true":
	default:
		s.Extra = new(schema)
		if err := json.Unmarshal(w.AdditionalProperties, s.Extra); err != nil {
			return i18n.Wrap(err, "toolbox.schema.additional", err)
		}
	}
	return nil
}

// check reports the first mistake in the schema at path that would make
// validation meaningless or impossible.
func (s *schema) check(path string) error {
	for _, t := range s.Types {
		if !slices.Contains(knownTypes, t) {
			return i18n.Errorf("toolbox.schema.unknown_type", path, t)
		}
	}
	if s.Minimum != nil && s.Maximum != nil && *s.Minimum > *s.Maximum {
		return i18n.Errorf("toolbox.schema.min_max", path)
	}
	if s.MinLength != nil && s.MaxLength != nil && *s.MinLength > *s.MaxLength {
		return i18n.Errorf("toolbox.schema.min_max_length", path)
	}
	if s.Enum != nil && len(s.Enum) == 0 {
		return i18n.Errorf("toolbox.schema.enum_empty", path)
	}
	for _, v := range s.Enum {
		if !s.allows(v) {
			return i18n.Errorf("toolbox.schema.enum_type", path, preview(v), strings.Join(s.Types, " | "))
		}
	}
	for _, name := range s.Order {
		if s.Properties[name] == nil {
			return i18n.Errorf("toolbox.schema.null_property", path+"."+name)
		}
		if err := s.Properties[name].check(path + "." + name); err != nil {
			return err
		}
	}
	for _, name := range s.Required {
		if _, ok := s.Properties[name]; !ok && s.Properties != nil {
			return i18n.Errorf("toolbox.schema.required", path, name)
		}
	}
	if s.Items != nil {
		if err := s.Items.check(path + "[]"); err != nil {
			return err
		}
	}
	if s.Extra != nil {
		if err := s.Extra.check(path + ".*"); err != nil {
			return err
		}
	}
	if len(s.Default) > 0 {
		var c coercion
		v, err := decodeJSON(s.Default)
		if err == nil {
			s.coerce(v, path, &c)
		}
		if err != nil || len(c.problems) > 0 || c.repaired {
			return i18n.Errorf("toolbox.schema.default", path, string(s.Default))
		}
	}
	return nil
}

// MarshalJSON writes the schema with its keys in a fixed, readable order and
// its properties in declaration order, which is how the model reads them.
func (s *schema) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.Grow(512)
	s.writeTo(&b)
	return b.Bytes(), nil
}

// writeTo writes the schema as MarshalJSON returns it, its nested schemas
// into the same buffer.
func (s *schema) writeTo(b *bytes.Buffer) {
	b.WriteByte('{')
	first := true
	key := func(k string) {
		if !first {
			b.WriteByte(',')
		}
		first = false
		writeString(b, k)
		b.WriteByte(':')
	}
	field := func(k string, v any) {
		key(k)
		writeJSON(b, v)
	}
	switch len(s.Types) {
	case 0:
	case 1:
		field("type", s.Types[0])
	default:
		field("type", s.Types)
	}
	if s.Description != "" {
		field("description", s.Description)
	}
	if s.Format != "" {
		field("format", s.Format)
	}
	if s.Enum != nil {
		field("enum", s.Enum)
	}
	if len(s.Default) > 0 {
		field("default", s.Default)
	}
	for _, n := range []struct {
		key string
		v   any
		set bool
	}{
		{"minimum", s.Minimum, s.Minimum != nil},
		{"maximum", s.Maximum, s.Maximum != nil},
		{"minLength", s.MinLength, s.MinLength != nil},
		{"maxLength", s.MaxLength, s.MaxLength != nil},
		{"items", s.Items, s.Items != nil},
	} {
		if n.set {
			field(n.key, n.v)
		}
	}
	if s.Properties != nil {
		key("properties")
		b.WriteByte('{')
		for i, name := range s.Order {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, name)
			b.WriteByte(':')
			writeJSON(b, s.Properties[name])
		}
		b.WriteByte('}')
	}
	if len(s.Required) > 0 {
		field("required", s.Required)
	}
	if s.Closed {
		field("additionalProperties", false)
	} else if s.Extra != nil {
		field("additionalProperties", s.Extra)
	}
	b.WriteByte('}')
}

// writeJSON writes v as json.Marshal does. The common values of a schema
// take no reflection: a string or a list of them escaped as Marshal
// escapes, a nested schema by its own MarshalJSON (whose output Marshal
// would leave as it is), a boolean as its word, a bound as its digits; the
// tools' schemas are made in every start that opens the toolkit.
func writeJSON(b *bytes.Buffer, v any) {
	switch v := v.(type) {
	case json.RawMessage:
		b.Write(v)
		return
	case string:
		writeString(b, v)
		return
	case bool:
		b.WriteString(strconv.FormatBool(v))
		return
	case []string:
		if v != nil {
			b.WriteByte('[')
			for i, s := range v {
				if i > 0 {
					b.WriteByte(',')
				}
				writeString(b, s)
			}
			b.WriteByte(']')
			return
		}
	case *int:
		if v != nil {
			b.WriteString(strconv.Itoa(*v))
			return
		}
	case *float64:
		// Marshal writes a float of this range as 'f' does, the shortest
		// that reads back; the others take its exponent form.
		if v == nil {
			break
		}
		if a := math.Abs(*v); a == 0 || a >= 1e-6 && a < 1e21 {
			b.WriteString(strconv.FormatFloat(*v, 'f', -1, 64))
			return
		}
	case *schema:
		if v != nil {
			v.writeTo(b)
			return
		}
	}
	j, _ := json.Marshal(v)
	b.Write(j)
}

// writeString writes s quoted as json.Marshal quotes it: a quote, a
// backslash and the control characters escaped, \b \f \n \r \t by name;
// HTML's <, > and &, U+2028 and U+2029 as \u escapes; bytes that are not
// UTF-8 as U+FFFD.
func writeString(b *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	done := 0 // s[:done] is written
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b.WriteString(s[done:i])
			switch c {
			case '"', '\\':
				b.WriteByte('\\')
				b.WriteByte(c)
			case '\b':
				b.WriteString(`\b`)
			case '\f':
				b.WriteString(`\f`)
			case '\n':
				b.WriteString(`\n`)
			case '\r':
				b.WriteString(`\r`)
			case '\t':
				b.WriteString(`\t`)
			default:
				b.WriteString(`\u00`)
				b.WriteByte(hex[c>>4])
				b.WriteByte(hex[c&0xf])
			}
			i++
			done = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(s[done:i])
			b.WriteString(`\ufffd`)
			done = i + size
		case r == '\u2028' || r == '\u2029':
			b.WriteString(s[done:i])
			b.WriteString(`\u202`)
			b.WriteByte(hex[r&0xf])
			done = i + size
		}
		i += size
	}
	b.WriteString(s[done:])
	b.WriteByte('"')
}
