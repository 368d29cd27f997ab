package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Bounds that keep RepairJSON linear and its recursion shallow on hostile input.
const (
	maxRepairDepth      = 256
	maxRepairCandidates = 32
)

var errRepairEnd = errors.New("the text ends inside a value")

// RepairJSON turns what models write as tool arguments into valid JSON where
// it can: it drops prose and ``` fences around an object or array, a byte
// order mark, // and /* */ comments, trailing commas and non-ASCII spaces
// (NBSP) between tokens; reads single-quoted and typographically quoted
// (“…”) strings, unquoted keys, Python's True/False/None, invalid backslash
// escapes and raw control characters in strings; and closes brackets and
// braces left open at the end. Valid JSON comes back unchanged
// with repaired false; a repair comes back compact. What it cannot repair
// gives an error wrapping ErrUnrepairable, in English for the model.
func RepairJSON(s string) (fixed string, repaired bool, err error) {
	if json.Valid([]byte(s)) {
		return s, false, nil
	}
	bodies := []string{s}
	if inner, ok := insideFence(s); ok {
		bodies = []string{inner, s}
	}
	firstErr := errors.New("no JSON object or array in the text")
	for _, body := range bodies {
		tried := 0
		for i := 0; i < len(body) && tried < maxRepairCandidates; i++ {
			if body[i] != '{' && body[i] != '[' {
				continue
			}
			tried++
			p := lenient{src: body, pos: i}
			if err := p.value(0); err != nil {
				if tried == 1 {
					firstErr = fmt.Errorf("%w at byte %d", err, p.pos)
				}
				continue
			}
			return p.out.String(), true, nil
		}
	}
	return "", false, fmt.Errorf("%w: %w", ErrUnrepairable, firstErr)
}

// insideFence returns the text of the first ``` block, without its info
// string (```json); an unclosed block runs to the end.
func insideFence(s string) (string, bool) {
	start := strings.Index(s, "```")
	if start < 0 {
		return "", false
	}
	rest := s[start+3:]
	info := rest
	if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
		info = rest[:nl]
	}
	tag := strings.TrimLeftFunc(info, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) })
	if strings.TrimSpace(tag) == "" {
		rest = rest[len(info):]
	}
	if end := strings.Index(rest, "```"); end >= 0 {
		rest = rest[:end]
	}
	return rest, true
}

// lenient parses one JSON value with the liberties models take, writing the
// strict equivalent to out.
type lenient struct {
	src string
	pos int
	out strings.Builder
}

func (p *lenient) value(depth int) error {
	if depth > maxRepairDepth {
		return errors.New("nested too deeply")
	}
	p.skipSpace()
	if p.pos >= len(p.src) {
		return errRepairEnd
	}
	switch c := p.src[p.pos]; {
	case c == '{':
		return p.container(depth, '}')
	case c == '[':
		return p.container(depth, ']')
	case c == '"' || c == '\'' || strings.HasPrefix(p.src[p.pos:], openCurly):
		str, err := p.str()
		if err != nil {
			return err
		}
		writeJSONString(&p.out, str)
		return nil
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	start := p.pos
	for p.pos < len(p.src) && isASCIILetter(p.src[p.pos]) {
		p.pos++
	}
	switch word := p.src[start:p.pos]; word {
	case "true", "True":
		p.out.WriteString("true")
	case "false", "False":
		p.out.WriteString("false")
	case "null", "None":
		p.out.WriteString("null")
	default:
		p.pos = start
		return fmt.Errorf("unexpected %q", p.src[p.pos:min(p.pos+10, len(p.src))])
	}
	return nil
}

// container parses an object or array; at the end of the text it closes it.
func (p *lenient) container(depth int, closer byte) error {
	p.out.WriteByte(p.src[p.pos])
	p.pos++
	for n := 0; ; n++ {
		p.skipSpace()
		if p.pos < len(p.src) && n > 0 && p.src[p.pos] == ',' {
			p.pos++
			p.skipSpace()
		} else if p.pos < len(p.src) && n > 0 && p.src[p.pos] != closer {
			return fmt.Errorf("expected ',' or '%c'", closer)
		}
		if p.pos >= len(p.src) {
			p.out.WriteByte(closer)
			return nil
		}
		if p.src[p.pos] == closer {
			p.pos++
			p.out.WriteByte(closer)
			return nil
		}
		if n > 0 {
			p.out.WriteByte(',')
		}
		if closer == '}' {
			if err := p.key(); err != nil {
				return err
			}
		}
		if err := p.value(depth + 1); err != nil {
			return err
		}
	}
}

// key parses an object key, quoted or not, and the colon after it.
func (p *lenient) key() error {
	var key string
	if c := p.src[p.pos]; c == '"' || c == '\'' || strings.HasPrefix(p.src[p.pos:], openCurly) {
		var err error
		if key, err = p.str(); err != nil {
			return err
		}
	} else {
		start := p.pos
		for p.pos < len(p.src) {
			r, size := utf8.DecodeRuneInString(p.src[p.pos:])
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("_$-.", r) {
				break
			}
			p.pos += size
		}
		if p.pos == start {
			return fmt.Errorf("expected a key, found %q", p.src[p.pos:min(p.pos+10, len(p.src))])
		}
		key = p.src[start:p.pos]
	}
	writeJSONString(&p.out, key)
	p.skipSpace()
	if p.pos >= len(p.src) {
		return errRepairEnd
	}
	if p.src[p.pos] != ':' {
		return fmt.Errorf("expected ':' after key %q", key)
	}
	p.pos++
	p.out.WriteByte(':')
	return nil
}

// Typographic double quotes, which word processors and some chat models put
// around keys and strings.
const (
	openCurly  = "\u201c"
	closeCurly = "\u201d"
)

// str parses a string quoted with ", ' or “…”. An unknown escape such as
// \d or a Windows path's \U keeps its backslash.
func (p *lenient) str() (string, error) {
	closer := p.src[p.pos : p.pos+1]
	if strings.HasPrefix(p.src[p.pos:], openCurly) {
		closer = closeCurly
		p.pos += len(openCurly) - 1
	}
	p.pos++
	var b strings.Builder
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case strings.HasPrefix(p.src[p.pos:], closer):
			p.pos += len(closer)
			return b.String(), nil
		case c != '\\':
			b.WriteByte(c)
			p.pos++
			continue
		}
		if p.pos+1 >= len(p.src) {
			break
		}
		esc := p.src[p.pos+1]
		p.pos += 2
		switch esc {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case '"', '\'', '\\', '/':
			b.WriteByte(esc)
		case 'u':
			b.WriteRune(p.unicodeEscape())
		default:
			b.WriteByte('\\')
			b.WriteByte(esc)
		}
	}
	return "", errRepairEnd
}

// unicodeEscape reads the hex digits after \u, joining a surrogate pair;
// broken escapes become U+FFFD.
func (p *lenient) unicodeEscape() rune {
	r, ok := p.hex4()
	if !ok {
		return utf8.RuneError
	}
	if utf16.IsSurrogate(r) {
		if strings.HasPrefix(p.src[p.pos:], `\u`) {
			p.pos += 2
			if r2, ok := p.hex4(); ok {
				return utf16.DecodeRune(r, r2)
			}
		}
		return utf8.RuneError
	}
	return r
}

func (p *lenient) hex4() (rune, bool) {
	if p.pos+4 > len(p.src) {
		return 0, false
	}
	v, err := strconv.ParseUint(p.src[p.pos:p.pos+4], 16, 32)
	if err != nil {
		return 0, false
	}
	p.pos += 4
	return rune(v), true
}

// number copies a number that follows JSON's grammar.
func (p *lenient) number() error {
	start := p.pos
	if p.src[p.pos] == '-' {
		p.pos++
	}
	digits := func() int {
		n := 0
		for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	intStart := p.pos
	if n := digits(); n == 0 || n > 1 && p.src[intStart] == '0' {
		return fmt.Errorf("malformed number %q", p.src[start:p.pos])
	}
	if p.pos < len(p.src) && p.src[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return fmt.Errorf("malformed number %q", p.src[start:p.pos])
		}
	}
	if p.pos < len(p.src) && (p.src[p.pos] == 'e' || p.src[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.src) && (p.src[p.pos] == '+' || p.src[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return fmt.Errorf("malformed number %q", p.src[start:p.pos])
		}
	}
	p.out.WriteString(p.src[start:p.pos])
	return nil
}

// skipSpace skips what may stand between tokens: white space, Unicode
// spaces such as NBSP, a byte order mark, and // or /* */ comments (an
// unclosed comment runs to the end).
func (p *lenient) skipSpace() {
	for p.pos < len(p.src) {
		rest := p.src[p.pos:]
		switch r, size := utf8.DecodeRuneInString(rest); {
		case unicode.IsSpace(r) || r == '\ufeff':
			p.pos += size
		case strings.HasPrefix(rest, "//"):
			end := strings.IndexByte(rest, '\n')
			if end < 0 {
				end = len(rest)
			}
			p.pos += end
		case strings.HasPrefix(rest, "/*"):
			end := strings.Index(rest[2:], "*/")
			if end < 0 {
				p.pos = len(p.src)
			} else {
				p.pos += 2 + end + 2
			}
		default:
			return
		}
	}
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// writeJSONString writes s as a JSON string; invalid UTF-8 becomes U+FFFD.
func writeJSONString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20:
			fmt.Fprintf(b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}
