package config

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
)

// errorPos is where a parse error is. The TOML library's own line is one
// too far when the mistake is at a line's end, and its column counts bytes
// from where the token started, so the place is worked out here from the
// error's byte span (start, length) and the text:
//   - the lexer stops in front of a byte that is not UTF-8 or is a control
//     character TOML forbids: at the span's start or just past its end;
//   - an escape it cannot read ends the span: its last backslash;
//   - otherwise the span's first character that is not a blank (some spans
//     start at the blank before the token).
func errorPos(src string, p toml.Position) pos {
	start := min(max(p.Start, 0), len(src))
	end := min(start+max(p.Len, 1), len(src))
	at := start
	switch {
	case forbidden(src, start):
	case forbidden(src, end):
		at = end
	case strings.LastIndexByte(src[start:end], '\\') >= 0:
		at = start + strings.LastIndexByte(src[start:end], '\\')
	default:
		for at < end-1 && (src[at] == ' ' || src[at] == '\t') {
			at++
		}
	}
	return posOf(src, at)
}

// forbidden reports whether the byte at i starts something TOML refuses:
// invalid UTF-8, or a control character other than a tab or a line break.
func forbidden(src string, i int) bool {
	if i >= len(src) {
		return false
	}
	r, size := utf8.DecodeRuneInString(src[i:])
	switch {
	case r == utf8.RuneError && size == 1:
		return true
	case r == '\t' || r == '\n' || r == '\r' && strings.HasPrefix(src[i+1:], "\n"):
		return false
	}
	return r < 0x20 || r == 0x7f
}

// posOf is the line and column (in characters, from 1) of byte offset i.
func posOf(src string, i int) pos {
	lineStart := strings.LastIndexByte(src[:i], '\n') + 1
	return pos{strings.Count(src[:i], "\n") + 1, utf8.RuneCountInString(src[lineStart:i]) + 1}
}

// keyPositions finds where each key of a TOML document is written, as dotted
// keys ("model.base_url") mapped to line and column. The TOML library keeps
// positions to itself, so this reads the lines the way TOML lays them out:
// table headers, then key = value lines, skipping multi-line strings. It runs
// only on a document the parser has accepted.
func keyPositions(src string) map[string]pos {
	out := map[string]pos{}
	var table []string
	inMulti := ""
	for n, line := range strings.Split(src, "\n") {
		trimmed := strings.TrimSpace(line)
		col := len(line) - len(strings.TrimLeft(line, " \t")) + 1
		if inMulti != "" {
			if strings.Count(trimmed, inMulti)%2 == 1 {
				inMulti = ""
			}
			continue
		}
		switch {
		case trimmed == "" || strings.HasPrefix(trimmed, "#"):
		case strings.HasPrefix(trimmed, "["):
			name := strings.Trim(strings.SplitN(trimmed, "]", 2)[0], "[ \t")
			if strings.HasPrefix(trimmed, "[[") {
				name = strings.Trim(strings.SplitN(trimmed, "]]", 2)[0], "[ \t")
			}
			table = splitKey(name)
			setOnce(out, strings.Join(table, "."), pos{n + 1, col})
		default:
			key, value, ok := strings.Cut(trimmed, "=")
			if !ok {
				continue
			}
			full := append(slices.Clone(table), splitKey(key)...)
			setOnce(out, strings.Join(full, "."), pos{n + 1, col})
			for _, q := range []string{`"""`, `'''`} {
				if strings.Count(value, q)%2 == 1 {
					inMulti = q
				}
			}
		}
	}
	return out
}

func setOnce(m map[string]pos, k string, p pos) {
	if _, ok := m[k]; !ok {
		m[k] = p
	}
}

// splitKey splits a dotted TOML key, unquoting quoted parts.
func splitKey(key string) []string {
	var parts []string
	for _, p := range strings.Split(key, ".") {
		parts = append(parts, strings.Trim(strings.TrimSpace(p), `"'`))
	}
	return parts
}
