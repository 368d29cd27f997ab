package toolbox

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Func builds a Tool from a Go function whose parameter struct P gives the
// tool's JSON Schema through its field tags:
//
//	json:"name,omitempty"  the property name; omitempty makes it optional
//	description:"..."      what the value means, written for the model
//	format:"date"          date (YYYY-MM-DD) or date-time (RFC 3339); others are hints
//	enum:"a,b,c"           the allowed values, comma-separated
//	default:"..."          the value used when the model leaves the field out
//	minimum:"0" maximum:"10" minLength:"1" maxLength:"80"
//	required:"true"        overrides the rule below either way
//
// The rule: a field is required unless its json tag has omitempty or it has
// a default tag. On a slice field, format, enum, minimum, maximum, minLength
// and maxLength describe its elements. Structs nest as objects, maps with
// string keys as objects of any keys, time.Time as a date-time string;
// unknown fields are refused (additionalProperties false), which catches a
// misspelt optional field that would otherwise be silently ignored.
//
// The description's final line breaks are left out, so that it may be a
// tool's .md file as embedded (Builtin).
//
// Defaults are filled in before fn runs, so fn sees them even when the
// arguments did not pass through Registry.Prepare. Func panics when P's tags
// are malformed: that is a mistake in the program, seen at start-up.
func Func[P any](name, description string, risk Risk, fn func(ctx context.Context, env Env, p P) (string, error)) Tool {
	params, defaults := funcSchemaOf[P](name)
	return Tool{
		Name:        name,
		Description: strings.TrimRight(description, "\n"),
		Parameters:  params,
		checked:     params,
		Risk:        risk,
		Run: func(ctx context.Context, env Env, args json.RawMessage) (string, error) {
			var p P
			if err := json.Unmarshal(defaults, &p); err != nil {
				// The tags' defaults match the schema (funcSchemaOf), which
				// is P's; this is a guard against the two disagreeing.
				return "", fmt.Errorf("toolbox.Func(%q): the defaults do not fit the struct: %w", name, err)
			}
			if len(args) > 0 {
				if err := json.Unmarshal(args, &p); err != nil {
					return "", &CallError{Message: fmt.Sprintf(
						"the arguments for %s do not match its parameters; call it again with arguments that match this schema: %s", name, params)}
				}
			}
			return fn(ctx, env, p)
		},
	}
}

// funcSchemas holds the schema and the defaults Func made of each parameter
// struct (a reflect.Type), so that a tool made again (a run's built-in file
// tools after the toolkit's) takes no reflection. They are shared, never
// modified.
var funcSchemas sync.Map

type funcSchema struct{ params, defaults json.RawMessage }

// funcSchemaOf is P's schema and the defaults of its properties, checked;
// it panics when P's tags are malformed.
func funcSchemaOf[P any](name string) (params, defaults json.RawMessage) {
	t := reflect.TypeFor[P]()
	if v, ok := funcSchemas.Load(t); ok {
		fs := v.(funcSchema)
		return fs.params, fs.defaults
	}
	s, err := typeSchema(t, map[reflect.Type]bool{})
	if err == nil && (len(s.Types) != 1 || s.Types[0] != "object") {
		err = fmt.Errorf("parameters must be a struct")
	}
	if err == nil {
		err = s.check("parameters")
	}
	if err != nil {
		panic(fmt.Sprintf("toolbox.Func(%q): %v", name, err))
	}
	params, _ = s.MarshalJSON() // writing a schema never fails
	defaults = defaultsOf(s)
	funcSchemas.Store(t, funcSchema{params, defaults})
	return params, defaults
}

// defaultsOf is the JSON object of the default values of s's properties,
// nested objects included, in their order; null when there are none.
func defaultsOf(s *schema) json.RawMessage {
	var b bytes.Buffer
	for _, name := range s.Order {
		p := s.Properties[name]
		v := p.Default
		if len(v) == 0 && p.Properties != nil {
			v = defaultsOf(p)
		}
		if len(v) == 0 || string(v) == "null" {
			continue
		}
		if b.Len() == 0 {
			b.WriteByte('{')
		} else {
			b.WriteByte(',')
		}
		writeString(&b, name)
		b.WriteByte(':')
		b.Write(v)
	}
	if b.Len() == 0 {
		return json.RawMessage("null")
	}
	b.WriteByte('}')
	return b.Bytes()
}

var (
	timeType = reflect.TypeFor[time.Time]()
	rawType  = reflect.TypeFor[json.RawMessage]()
)

// typeSchema maps a Go type to the schema of its JSON encoding. seen holds
// the structs being expanded, to refuse recursive types.
func typeSchema(t reflect.Type, seen map[reflect.Type]bool) (*schema, error) {
	switch t {
	case timeType:
		return &schema{Types: []string{"string"}, Format: "date-time"}, nil
	case rawType:
		return &schema{}, nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		return typeSchema(t.Elem(), seen)
	case reflect.String:
		return &schema{Types: []string{"string"}}, nil
	case reflect.Bool:
		return &schema{Types: []string{"boolean"}}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return &schema{Types: []string{"integer"}}, nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		zero := 0.0
		return &schema{Types: []string{"integer"}, Minimum: &zero}, nil
	case reflect.Float32, reflect.Float64:
		return &schema{Types: []string{"number"}}, nil
	case reflect.Interface:
		return &schema{}, nil
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return nil, fmt.Errorf("%s: byte slices are not supported; use a string", t)
		}
		items, err := typeSchema(t.Elem(), seen)
		if err != nil {
			return nil, err
		}
		return &schema{Types: []string{"array"}, Items: items}, nil
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return nil, fmt.Errorf("%s: map keys must be strings", t)
		}
		extra, err := typeSchema(t.Elem(), seen)
		if err != nil {
			return nil, err
		}
		return &schema{Types: []string{"object"}, Extra: extra}, nil
	case reflect.Struct:
		if seen[t] {
			return nil, fmt.Errorf("%s: recursive types are not supported", t)
		}
		seen[t] = true
		defer delete(seen, t)
		s := &schema{Types: []string{"object"}, Properties: map[string]*schema{}, Closed: true}
		if err := addFields(s, t, seen); err != nil {
			return nil, err
		}
		return s, nil
	}
	return nil, fmt.Errorf("%s: unsupported type", t)
}

// addFields adds the properties of struct t to s, flattening embedded
// structs as encoding/json does.
func addFields(s *schema, t reflect.Type, seen map[reflect.Type]bool) error {
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" && opts == "" || !f.IsExported() && !f.Anonymous {
			continue
		}
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			if err := addFields(s, ft, seen); err != nil {
				return err
			}
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if _, dup := s.Properties[name]; dup {
			return fmt.Errorf("field %s: property %q defined twice", f.Name, name)
		}
		p, err := typeSchema(f.Type, seen)
		if err != nil {
			return fmt.Errorf("field %s: %w", f.Name, err)
		}
		if err := applyTags(p, f.Tag); err != nil {
			return fmt.Errorf("field %s: %w", f.Name, err)
		}
		required := !strings.Contains(","+opts+",", ",omitempty,") && !strings.Contains(","+opts+",", ",omitzero,") && len(p.Default) == 0
		if r, ok := f.Tag.Lookup("required"); ok {
			if required, err = strconv.ParseBool(r); err != nil {
				return fmt.Errorf("field %s: required tag %q is not true or false", f.Name, r)
			}
		}
		s.Properties[name] = p
		s.Order = append(s.Order, name)
		if required {
			s.Required = append(s.Required, name)
		}
	}
	return nil
}

// applyTags sets the schema keywords that a field's tags give.
func applyTags(p *schema, tag reflect.StructTag) error {
	p.Description = tag.Get("description")
	if d, ok := tag.Lookup("default"); ok {
		v, err := parseTagValue(p, d)
		if err != nil {
			return fmt.Errorf("default tag: %w", err)
		}
		if p.Default, err = encodeJSON(v); err != nil {
			return fmt.Errorf("default tag: %w", err)
		}
	}
	target := p // value keywords describe a slice's elements
	if p.Items != nil {
		target = p.Items
	}
	if f, ok := tag.Lookup("format"); ok {
		target.Format = f
	}
	if e, ok := tag.Lookup("enum"); ok {
		for _, part := range strings.Split(e, ",") {
			v, err := parseTagValue(target, strings.TrimSpace(part))
			if err != nil {
				return fmt.Errorf("enum tag: %w", err)
			}
			target.Enum = append(target.Enum, v)
		}
	}
	for _, b := range []struct {
		key string
		f   **float64
	}{{"minimum", &target.Minimum}, {"maximum", &target.Maximum}} {
		if v, ok := tag.Lookup(b.key); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return fmt.Errorf("%s tag %q is not a number", b.key, v)
			}
			*b.f = &f
		}
	}
	for _, b := range []struct {
		key string
		n   **int
	}{{"minLength", &target.MinLength}, {"maxLength", &target.MaxLength}} {
		if v, ok := tag.Lookup(b.key); ok {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return fmt.Errorf("%s tag %q is not a count", b.key, v)
			}
			*b.n = &n
		}
	}
	return nil
}

// parseTagValue reads a tag's text as a value of the schema's type: strings
// as they are, arrays and objects as JSON.
func parseTagValue(s *schema, text string) (any, error) {
	if len(s.Types) == 0 {
		return decodeJSON([]byte(text))
	}
	switch s.Types[0] {
	case "string":
		return text, nil
	case "integer", "number", "boolean":
		v, ok := s.convert(text)
		if !ok {
			return nil, fmt.Errorf("%q is not of type %s", text, s.Types[0])
		}
		return v, nil
	}
	v, err := decodeJSON([]byte(text))
	if err != nil {
		return nil, fmt.Errorf("%q is not JSON: %w", text, err)
	}
	return v, nil
}
