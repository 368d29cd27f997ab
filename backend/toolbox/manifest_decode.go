package toolbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"regexp"
	"strings"
	"unicode/utf8"

	"hermes/backend/config"
	"hermes/backend/i18n"
)

// unknownFieldRE is how encoding/json words a key DisallowUnknownFields
// refuses; it has no error type of its own.
var unknownFieldRE = regexp.MustCompile(`^json: unknown field "(.*)"$`)

// decodeError says what is wrong with a skill.json that does not decode,
// and where, in the user's language: the line and column of a syntax
// error, the key meant by a misspelt one, the type a value must have.
func decodeError(data []byte, err error) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		line, col := lineColumn(data, syntax.Offset-1) // Offset is just past the character at fault
		return i18n.Wrap(err, "toolbox.manifest.syntax", line, col, syntax.Error())
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return i18n.Wrap(err, "toolbox.manifest.truncated")
	case errors.As(err, &typ):
		return i18n.Wrap(err, "toolbox.manifest.type", typ.Field, i18n.TextOf(kindKey(typ.Type)), i18n.TextOf(valueKey(typ.Value)))
	}
	if m := unknownFieldRE.FindStringSubmatch(err.Error()); m != nil {
		if near := config.Closest(m[1], manifestKeys()); near != "" {
			return i18n.Wrap(err, "toolbox.manifest.unknown_key", m[1], near)
		}
		return i18n.Wrap(err, "toolbox.manifest.unknown_key_any", m[1])
	}
	return i18n.Wrap(err, "toolbox.manifest.invalid", err.Error())
}

// lineColumn is where byte offset falls in data, counted from 1; a column
// counts characters, not bytes, as an editor does.
func lineColumn(data []byte, offset int64) (line, column int) {
	offset = min(max(offset, 0), int64(len(data)))
	before := data[:offset]
	start := bytes.LastIndexByte(before, '\n') + 1
	return bytes.Count(before, []byte("\n")) + 1, utf8.RuneCount(before[start:]) + 1
}

// manifestKeys are the keys a skill.json takes, at any level.
func manifestKeys() []string {
	var keys []string
	for _, t := range []reflect.Type{reflect.TypeFor[Manifest](), reflect.TypeFor[ManifestTool](), reflect.TypeFor[MCPSpec](), reflect.TypeFor[Asks]()} {
		for i := range t.NumField() {
			if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name != "" && name != "-" {
				keys = append(keys, name)
			}
		}
	}
	return keys
}

// kindKey is the message naming what a Go field of type t takes in JSON.
func kindKey(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "toolbox.manifest.kind.string"
	case reflect.Bool:
		return "toolbox.manifest.kind.bool"
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 { // json.RawMessage: a schema
			return "toolbox.manifest.kind.object"
		}
		return "toolbox.manifest.kind.list"
	case reflect.Map, reflect.Struct:
		return "toolbox.manifest.kind.object"
	default:
		return "toolbox.manifest.kind.number"
	}
}

// valueKey is the message naming the JSON value encoding/json found
// ("string", "number 1.5", "array", "object", "bool").
func valueKey(value string) string {
	first, _, _ := strings.Cut(value, " ")
	switch first {
	case "string", "number", "object", "bool":
		return "toolbox.manifest.kind." + first
	case "array":
		return "toolbox.manifest.kind.list"
	}
	return "toolbox.manifest.kind.null"
}
