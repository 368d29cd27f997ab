package vault

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"hermes/backend/toolbox"
)

// Properties are a note's YAML front matter as Obsidian shows it: each
// key with a type (text, list, number, checkbox, date, datetime). A
// property is written by replacing the lines of its key alone, so that
// every other byte of the note (comments, order, quoting, the other keys'
// spelling) stays as it was: the front matter is never re-serialised.

// Property is one front-matter key.
type Property struct {
	Name string `json:"name"`
	// Type is text, list, number, checkbox, date or datetime (Obsidian's
	// types), or empty for a key with no value.
	Type  string `json:"type"`
	Value any    `json:"value"` // string, []string, float64, bool or nil
}

// propBlock is a front-matter key's lines: the key's line and the lines
// that continue its value (list items, indented lines), as line indexes
// [from, to) of the whole note.
type propBlock struct {
	name     string
	from, to int
}

// frontBounds finds the front matter of a note's lines (which may end in
// "\r"): the indexes of its opening and closing "---" lines.
func frontBounds(lines []string) (open, close int, ok bool) {
	if len(lines) == 0 || strings.TrimRight(lines[0], " \t\r") != "---" {
		return 0, 0, false
	}
	for i := 1; i < len(lines); i++ {
		if l := strings.TrimRight(lines[i], " \t\r"); l == "---" || l == "..." {
			return 0, i, true
		}
	}
	return 0, 0, false
}

// propBlocks lists the keys between the front matter's lines open and
// close. Blank lines and comments at the start of a line belong to no key.
func propBlocks(lines []string, open, close int) []propBlock {
	var out []propBlock
	for i := open + 1; i < close; i++ {
		line := strings.TrimRight(lines[i], "\r")
		if line == "" || line[0] == ' ' || line[0] == '\t' || line[0] == '#' || line[0] == '-' {
			continue
		}
		k, _, ok := cutKey(line)
		if !ok {
			continue
		}
		end := i + 1
		for end < close {
			l := strings.TrimRight(lines[end], "\r")
			if l == "" || !(l[0] == ' ' || l[0] == '\t' || l[0] == '-') {
				break
			}
			end++
		}
		// A value's lines may hold blank lines; those before the next key
		// are its own only when more of the value follows them.
		for end < close && strings.TrimSpace(lines[end]) == "" {
			next := end
			for next < close && strings.TrimSpace(lines[next]) == "" {
				next++
			}
			if next < close && (lines[next][0] == ' ' || lines[next][0] == '\t') {
				end = next
				for end < close {
					l := strings.TrimRight(lines[end], "\r")
					if l == "" || !(l[0] == ' ' || l[0] == '\t' || l[0] == '-') {
						break
					}
					end++
				}
				continue
			}
			break
		}
		out = append(out, propBlock{name: k, from: i, to: end})
		i = end - 1
	}
	return out
}

// cutKey splits "key: value" at the colon that ends the key (a quoted key
// may hold one).
func cutKey(line string) (key, value string, ok bool) {
	if line[0] == '"' || line[0] == '\'' {
		q := line[0]
		j := strings.IndexByte(line[1:], q)
		if j < 0 {
			return "", "", false
		}
		rest := line[j+2:]
		if !strings.HasPrefix(rest, ":") {
			return "", "", false
		}
		return line[1 : j+1], rest[1:], true
	}
	for i := 0; i < len(line); i++ {
		if line[i] == ':' && (i+1 == len(line) || line[i+1] == ' ' || line[i+1] == '\t') {
			return strings.TrimSpace(line[:i]), line[i+1:], true
		}
	}
	return "", "", false
}

var (
	dateRE     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`) })
	datetimeRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$`)
	})
)

// listKeys are the keys Obsidian always treats as lists.
var listKeys = []string{"tags", "aliases", "cssclasses"}

// readProperty reads a key's lines into its typed value. types are the
// vault's declared types (.obsidian/types.json), by lower-case name.
func readProperty(lines []string, b propBlock, types map[string]string) Property {
	_, value, _ := cutKey(strings.TrimRight(lines[b.from], "\r"))
	value = strings.TrimSpace(value)
	p := Property{Name: b.name}
	var items []string
	isList := false
	for _, l := range lines[b.from+1 : b.to] {
		t := strings.TrimSpace(strings.TrimRight(l, "\r"))
		if item, ok := strings.CutPrefix(t, "-"); ok && (item == "" || item[0] == ' ') {
			isList = true
			if v := unquote(stripComment(strings.TrimSpace(item))); v != "" {
				items = append(items, v)
			}
		}
	}
	switch {
	case isList && (value == "" || strings.HasPrefix(value, "#")):
		p.Type, p.Value = "list", items
	case strings.HasPrefix(value, "[") && strings.HasSuffix(stripComment(value), "]") && !strings.HasPrefix(value, "[["):
		v := stripComment(value)
		var vs []string
		for _, part := range splitFlow(v[1 : len(v)-1]) {
			if s := unquote(strings.TrimSpace(part)); s != "" {
				vs = append(vs, s)
			}
		}
		p.Type, p.Value = "list", vs
	case value == "|" || value == ">" || strings.HasPrefix(value, "|") || strings.HasPrefix(value, ">"):
		var text []string
		for _, l := range lines[b.from+1 : b.to] {
			text = append(text, strings.TrimSpace(strings.TrimRight(l, "\r")))
		}
		sep := " "
		if value[0] == '|' {
			sep = "\n"
		}
		p.Type, p.Value = "text", strings.TrimSpace(strings.Join(text, sep))
	case value == "" || value == "~" || value == "null" || strings.HasPrefix(value, "#"):
		p.Type, p.Value = "", nil
	default:
		p.Type, p.Value = scalar(stripComment(value))
	}
	want := types[strings.ToLower(b.name)]
	for _, k := range listKeys {
		if strings.EqualFold(b.name, k) {
			want = "multitext"
		}
	}
	switch want {
	case "multitext", "tags", "aliases":
		if s, ok := p.Value.(string); ok {
			p.Type, p.Value = "list", []string{s}
		} else if p.Value == nil {
			p.Type, p.Value = "list", []string{}
		}
	case "text":
		if p.Value != nil && p.Type != "list" && p.Type != "text" {
			p.Type, p.Value = "text", unquote(stripComment(value))
		}
	}
	return p
}

// scalar types a YAML scalar as Obsidian does.
func scalar(v string) (string, any) {
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') {
		s := unquote(v)
		if v[0] == '"' {
			if u, err := strconv.Unquote(v); err == nil {
				s = u
			}
		}
		return typedText(s), s
	}
	switch strings.ToLower(v) {
	case "true":
		return "checkbox", true
	case "false":
		return "checkbox", false
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
		return "number", f
	}
	return typedText(v), v
}

// typedText is the type of a text value: a date or a date and time as
// Obsidian recognises them, quoted or not.
func typedText(s string) string {
	switch {
	case dateRE().MatchString(s):
		return "date"
	case datetimeRE().MatchString(s):
		return "datetime"
	}
	return "text"
}

// noteProperties reads a note's front matter (its text with any line
// endings) into its properties, in the order written.
func noteProperties(text string, types map[string]string) []Property {
	lines := strings.Split(text, "\n")
	open, close, ok := frontBounds(lines)
	if !ok {
		return nil
	}
	var out []Property
	for _, b := range propBlocks(lines, open, close) {
		out = append(out, readProperty(lines, b, types))
	}
	return out
}

// propertyChanges are the keys whose values differ between two texts.
func propertyChanges(before, after string) []PropertyChange {
	b, a := noteProperties(before, nil), noteProperties(after, nil)
	find := func(list []Property, name string) (Property, bool) {
		for _, p := range list {
			if p.Name == name {
				return p, true
			}
		}
		return Property{}, false
	}
	var out []PropertyChange
	for _, p := range b {
		q, ok := find(a, p.Name)
		switch {
		case !ok:
			out = append(out, PropertyChange{Name: p.Name, Before: p.Value, Removed: true})
		case !reflect.DeepEqual(p.Value, q.Value):
			out = append(out, PropertyChange{Name: p.Name, Before: p.Value, After: q.Value})
		}
	}
	for _, q := range a {
		if _, ok := find(b, q.Name); !ok {
			out = append(out, PropertyChange{Name: q.Name, After: q.Value, Added: true})
		}
	}
	return out
}

// setProperty sets the key name to value (a JSON value: string, number,
// bool, list of those, or null) in a note's text, or removes it, by
// replacing that key's lines alone. crlf says which line ending new lines
// get. It returns the new text and the property's type.
func setProperty(text, name string, value any, remove, crlf bool, types map[string]string) (string, error) {
	nl := "\n"
	if crlf {
		nl = "\r\n"
	}
	lines := strings.Split(text, "\n")
	open, close, ok := frontBounds(lines)
	var block *propBlock
	if ok {
		blocks := propBlocks(lines, open, close)
		for i := range blocks {
			if blocks[i].name == name {
				block = &blocks[i]
			}
		}
		if block == nil {
			for i := range blocks {
				if strings.EqualFold(blocks[i].name, name) {
					block = &blocks[i]
				}
			}
		}
	}
	if remove {
		if block == nil {
			return "", toolbox.Errorf("there is no property %q to remove; call get_properties to see the note's properties", name)
		}
		lines = append(lines[:block.from:block.from], lines[block.to:]...)
		// The last key gone leaves no empty front matter behind.
		if close-(block.to-block.from) == open+1 {
			lines = lines[2:]
		}
		return strings.Join(lines, "\n"), nil
	}
	kind := ""
	if block != nil {
		kind = readProperty(lines, *block, types).Type
		name = block.name // as written
	} else if t := types[strings.ToLower(name)]; t != "" {
		kind = map[string]string{"multitext": "list", "tags": "list", "aliases": "list"}[t]
	}
	for _, k := range listKeys {
		if strings.EqualFold(name, k) {
			kind = "list"
		}
	}
	written, err := yamlProperty(name, value, kind)
	if err != nil {
		return "", err
	}
	// The key's line ends as the line it replaces did.
	if block != nil && strings.HasSuffix(lines[block.from], "\r") {
		nl = "\r\n"
	}
	cr := ""
	if nl == "\r\n" {
		cr = "\r"
	}
	add := make([]string, len(written))
	for i, l := range written {
		add[i] = l + cr
	}
	switch {
	case block != nil:
		lines = append(lines[:block.from:block.from], append(add, lines[block.to:]...)...)
	case ok:
		lines = append(lines[:close:close], append(add, lines[close:]...)...)
	default:
		head := append([]string{"---" + cr}, add...)
		lines = append(append(head, "---"+cr), lines...)
	}
	return strings.Join(lines, "\n"), nil
}

// yamlProperty writes a key and its value as Obsidian writes properties:
// a list as "- item" lines indented by two spaces, a scalar on the key's
// line, quoted only when YAML would read it otherwise. kind is the
// property's type when known, so that a text that looks like a number
// stays text.
func yamlProperty(name string, value any, kind string) ([]string, error) {
	key := name
	if !plainSafe(name) {
		key = strconv.Quote(name)
	}
	if f, ok := value.(json.Number); ok {
		value = string(f)
		if kind == "" {
			kind = "number"
		}
	}
	if s, ok := value.(string); ok && kind == "list" {
		value = []any{s}
	}
	switch v := value.(type) {
	case nil:
		return []string{key + ":"}, nil
	case bool, float64, int:
		return []string{fmt.Sprintf("%s: %v", key, v)}, nil
	case string:
		return []string{key + ": " + yamlScalar(v, kind)}, nil
	case []string:
		items := make([]any, len(v))
		for i, s := range v {
			items[i] = s
		}
		return yamlProperty(name, items, kind)
	case []any:
		out := []string{key + ":"}
		for _, item := range v {
			switch it := item.(type) {
			case string:
				out = append(out, "  - "+yamlScalar(it, "text"))
			case bool, float64, json.Number:
				out = append(out, fmt.Sprintf("  - %v", it))
			default:
				return nil, toolbox.Errorf("a list property holds text, numbers or checkboxes, not %T; give a list of strings", item)
			}
		}
		return out, nil
	}
	return nil, toolbox.Errorf("a property's value is text, a number, true or false, a date (YYYY-MM-DD), a list or null, not an object; give one of those")
}

// yamlScalar writes s plain when YAML reads it back as the same text, and
// double-quoted otherwise.
func yamlScalar(s, kind string) string {
	if plainSafe(s) {
		t, _ := scalar(s)
		if kind == "text" && t != "text" && t != "date" && t != "datetime" || strings.EqualFold(s, "null") || s == "~" {
			return strconv.Quote(s)
		}
		return s
	}
	return strconv.Quote(s)
}

// plainSafe reports whether s can be a plain YAML scalar.
func plainSafe(s string) bool {
	if s == "" || s != strings.TrimSpace(s) || strings.ContainsAny(s, "\n\r\t\"") {
		return false
	}
	if strings.ContainsRune("-?:,[]{}#&*!|>'%@`", rune(s[0])) {
		return false
	}
	return !strings.Contains(s, ": ") && !strings.Contains(s, " #") && !strings.HasSuffix(s, ":")
}
