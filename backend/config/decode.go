package config

import (
	"reflect"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
)

// decode parses the TOML text src into v, as toml.Decode does, but hands
// the parser the text without its comments: the parser reads a comment a
// character at a time, about 40 µs a kilobyte, and hermes.toml as `config
// init` writes it is 16 KB of comments around a few lines, which made each
// parse 0.6 ms of a process's start, and a load parses two or three times.
// Text the parser refuses is parsed again as written, so that an error is
// the parser's own and placed where it was.
func decode(src string, v any) (toml.MetaData, error) {
	stripped := strippedOf(src)
	if len(stripped) == len(src) {
		return toml.Decode(src, v)
	}
	md, err := toml.Decode(stripped, v)
	if err == nil {
		return md, nil
	}
	return toml.Decode(src, reflect.New(reflect.TypeOf(v).Elem()).Interface())
}

// stripped remembers the last text decode left the comments out of: a load
// decodes the same text two or three times.
var stripped struct {
	sync.Mutex
	src, out string
}

func strippedOf(src string) string {
	stripped.Lock()
	defer stripped.Unlock()
	if src != stripped.src {
		stripped.src, stripped.out = src, withoutComments(src)
	}
	return stripped.out
}

// withoutComments is src with each comment left out (from its "#" to its
// line's end, which stays): the strings, where a "#" is text, are skipped
// whole (stringEnd). A comment holding what TOML forbids in one (a control
// character, bytes that are not UTF-8) is kept, for the parser to refuse.
func withoutComments(src string) string {
	var b strings.Builder
	from := 0 // src[from:] is not written yet
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '"', '\'':
			i = stringEnd(src, i) - 1
		case '#':
			end := lineEnd(src, i)
			if end > i && src[end-1] == '\r' && end < len(src) {
				end-- // a CRLF line's end
			}
			if plainComment(src[i+1 : end]) {
				if b.Len() == 0 {
					b.Grow(len(src) / 4)
				}
				b.WriteString(src[from:i])
				from = end
			}
			i = end - 1
		}
	}
	if from == 0 {
		return src
	}
	b.WriteString(src[from:])
	return b.String()
}

// plainComment reports whether the text of a comment is all TOML allows in
// one: tabs and printable UTF-8.
func plainComment(s string) bool {
	ascii := true
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 && c != '\t', c == 0x7f:
			return false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	if ascii {
		return true
	}
	for _, r := range s {
		if r == utf8.RuneError {
			return false
		}
	}
	return true
}

// parsed is a config text parsed once: each top-level key's value not yet
// decoded, so that the tree that checks the file and the Config it gives
// share the one parse.
type parsed struct {
	md  toml.MetaData
	top map[string]toml.Primitive
}

func parseText(src string) (*parsed, error) {
	p := &parsed{}
	md, err := decode(src, &p.top)
	if err != nil {
		return nil, err
	}
	p.md = md
	return p, nil
}

// value is prim as the parser gave it (the values decoding into an any
// gives), without marking its keys decoded.
func (p *parsed) value(prim toml.Primitive) any {
	var v any
	_ = p.md.PrimitiveDecode(prim, &v) // an empty interface takes any value
	return v
}

// tree is the text as decoding it into a map[string]any gives it. Its
// tables are the parser's own: once one is changed (checkTypes removes the
// values it reports), p is not to be decoded.
func (p *parsed) tree() map[string]any {
	tree := make(map[string]any, len(p.top))
	for k, prim := range p.top {
		tree[k] = p.value(prim)
	}
	return tree
}
