package config

import (
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"hermes/backend/i18n"
)

// A Windows path written the usual way, "C:\Users\me\notes", is not what
// TOML reads in double quotes: \U must be followed by hex digits (a syntax
// error, given the advice in syntaxError), and \n, \t, \b, \f, \r and \e
// are escapes that turn "C:\notes" into "C:", a newline and "otes"
// without any error. escapedPaths refuses such strings with the same
// advice: single quotes, or forward slashes.

// hasEscapeInDoubleQuotes reports a line with a backslash after a double
// quote, the usual way a Windows path goes wrong.
func hasEscapeInDoubleQuotes(line string) bool {
	q := strings.IndexByte(line, '"')
	return q >= 0 && strings.IndexByte(line[q:], '\\') >= 0
}

// programInputs are the keys whose strings a program gets as they are, where
// a newline or a tab may be meant ([[tools.mcp]] args and env): a control
// character there is refused only in what starts like a Windows path.
var programInputs = map[string]bool{"tools.mcp.args": true, "tools.mcp.env": true}

// escapedPaths reports the strings that a backslash escape in a one-line
// double-quoted string filled with control characters, wherever they are:
// a key's value, a list, an inline table, any [[tools.mcp]]. Each is
// placed at its string in the file. A multi-line string's newlines are
// meant, and left alone.
func (d *document) escapedPaths(tree map[string]any) []located {
	// What each such value is the value of, in the tree: a value written
	// twice is matched to its keys in the order the file gives.
	keysOf := map[string][]string{}
	var walk func(v any, key string)
	walk = func(v any, key string) {
		switch v := v.(type) {
		case map[string]any:
			for k, sub := range v {
				if key == "" {
					walk(sub, k)
				} else {
					walk(sub, key+"."+k)
				}
			}
		case []map[string]any:
			for _, sub := range v {
				walk(sub, key)
			}
		case []any:
			for _, sub := range v {
				walk(sub, key)
			}
		case string:
			if strings.IndexFunc(v, isControl) >= 0 {
				keysOf[v] = append(keysOf[v], key)
			}
		}
	}
	walk(tree, "")
	if len(keysOf) == 0 {
		return nil
	}
	var errs []located
	for _, s := range basicStrings(d.src) {
		keys := keysOf[s.value]
		if len(keys) == 0 {
			continue
		}
		key := d.keyBefore(keys, s.at)
		i := slices.Index(keys, key)
		keysOf[s.value] = slices.Delete(keys, i, i+1)
		if programInputs[key] && !startsLikeDrive(s.value) {
			continue
		}
		c := strings.IndexFunc(s.value, isControl)
		errs = append(errs, located{s.at, i18n.Wrap(ErrEscapedPath, "config.escaped_path",
			d.path, s.at, display(key), string(s.value[c]), msg("config.hint.windows_path"))})
	}
	return errs
}

// keyBefore is which of keys (the same value's) a string at at belongs to:
// the one written last before it, as far as the file's keys tell.
func (d *document) keyBefore(keys []string, at pos) string {
	best, bestAt := keys[0], pos{}
	for _, k := range keys {
		p := d.at(k)
		before := p.line < at.line || p.line == at.line && p.col <= at.col
		if before && (p.line > bestAt.line || p.line == bestAt.line && p.col > bestAt.col) {
			best, bestAt = k, p
		}
	}
	return best
}

// startsLikeDrive reports a string that starts as a Windows path does: a
// drive letter and a colon.
func startsLikeDrive(s string) bool {
	if len(s) < 2 || s[1] != ':' {
		return false
	}
	c := s[0] | 0x20
	return 'a' <= c && c <= 'z'
}

// basicString is a one-line double-quoted string of the document that
// holds a backslash: where it starts, and what TOML reads it as.
type basicString struct {
	at    pos
	value string
}

// basicStrings finds the document's one-line double-quoted strings with a
// backslash in them, in file order, reading the text as TOML lays it out:
// comments, single-quoted strings and multi-line strings are stepped over.
// It runs only on a document the parser has accepted.
func basicStrings(src string) []basicString {
	var out []basicString
	for i := 0; i < len(src); {
		rest := src[i:]
		switch {
		case rest[0] == '#':
			i += commentEnd(rest)
		case strings.HasPrefix(rest, `'''`):
			i += 3 + closing(rest[3:], `'''`)
		case strings.HasPrefix(rest, `"""`):
			i += 3 + closing(rest[3:], `"""`)
		case rest[0] == '\'':
			i += 1 + closing(rest[1:], `'`)
		case rest[0] == '"':
			n := 1 + closing(rest[1:], `"`)
			if raw := rest[:n]; strings.IndexByte(raw, '\\') >= 0 {
				var v struct{ V string }
				if _, err := toml.Decode("V = "+raw, &v); err == nil {
					out = append(out, basicString{posOf(src, i), v.V})
				}
			}
			i += n
		default:
			i++
		}
	}
	return out
}

// closing is the length of s up to and past the first delim that no
// backslash escapes (in a single-quoted string none does, and its text
// holds none of its delimiter), or len(s).
func closing(s, delim string) int {
	escapes := delim[0] == '"'
	for j := 0; j < len(s); j++ {
		if escapes && s[j] == '\\' {
			j++
			continue
		}
		if strings.HasPrefix(s[j:], delim) {
			return j + len(delim)
		}
	}
	return len(s)
}

func commentEnd(s string) int {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return i
	}
	return len(s)
}
