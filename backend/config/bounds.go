package config

import (
	"io"
	"os"
	"strings"

	"hermes/backend/i18n"
)

// The TOML parser copies the path of keys down to every key it reads, so
// its time and memory grow with how deep a file nests times how much of it
// does: a 16 KB hermes.toml of inline tables 4,000 deep took 1 GB and 7.5 s
// to parse, one 8,000 deep ran out of memory, and an edit like it took a
// running process down with its watcher. A file is therefore measured from
// its bytes before the parser sees it, and refused past these bounds, which
// no real config comes near: the deepest key there is (an MCP server's
// environment variable, [[tools.mcp]] env = {NAME = "…"}) is four levels
// down.
const (
	// maxFileSize bounds the bytes read at all: a config holds settings
	// (the commented default is 15 KB), and a file of long strings this
	// size parses in milliseconds.
	maxFileSize = 1 << 20
	// maxNesting bounds the depth of a key or value: each part of a table
	// header or a dotted key, each inline table and each array is a level.
	maxNesting = 32
	// maxKeyLevels bounds the sum of every key part's depth, what the
	// parser's copies grow with. A config that sets every key has about
	// 250, a price table of 3,000 models about 16,000; a file at the bound
	// loads in under half a second and 160 MB of garbage at worst (16,000
	// unknown keys, each reported).
	maxKeyLevels = 1 << 14
)

// readFile reads a config no larger than maxFileSize.
func readFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// Sized by the file's own size, so that reading it allocates once
	// (io.ReadAll grows from 512 bytes: a dozen copies of config init's
	// 17 KB); one byte more sees its end, or that it is too large.
	size := 512
	if fi, err := f.Stat(); err == nil && fi.Size() > 0 {
		size = int(min(fi.Size(), maxFileSize)) + 1
	}
	raw := make([]byte, 0, size)
	r := io.LimitReader(f, maxFileSize+1)
	for {
		n, err := r.Read(raw[len(raw):cap(raw)])
		raw = raw[:len(raw)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if len(raw) == cap(raw) {
			raw = append(raw, 0)[:len(raw)]
		}
	}
	if len(raw) > maxFileSize {
		return nil, i18n.Wrap(ErrTooLarge, "config.too_large", path, maxFileSize>>10)
	}
	return raw, nil
}

// checkNesting measures how deep src nests and how many key levels it holds
// without parsing it, and refuses it past maxNesting or maxKeyLevels at the
// place it went over.
func checkNesting(path, src string) error {
	at, levels, deep := measureNesting(src)
	switch {
	case deep:
		p := posOf(src, at)
		return i18n.Wrap(ErrTooDeep, "config.too_deep", path, p, maxNesting)
	case levels > maxKeyLevels:
		p := posOf(src, at)
		return i18n.Wrap(ErrTooDeep, "config.too_many_levels", path, p, maxKeyLevels)
	}
	return nil
}

// frame is an inline table or an array that the scan is inside, and the
// depth of what it holds.
type frame struct {
	table bool // an inline table, whose entries are keys; else an array of values
	depth int
}

// scanMode is what the scan expects next outside strings and comments.
type scanMode int

const (
	atLineStart scanMode = iota // a table header, a key, a comment or a blank line
	inHeader                    // the key of a [table] or [[array of tables]] header
	inKey                       // a key, up to its '='
	inValue                     // a value, or what separates values
)

// measureNesting walks src as TOML lays it out, skipping strings and
// comments, and counts the depth of every key part and array. It stops at
// the first level deeper than maxNesting (deep), or once the key levels
// pass maxKeyLevels, and returns that place; else it returns the key levels
// of the whole text. Text that is not TOML is measured as far as it goes:
// the parser reports what is wrong with it.
func measureNesting(src string) (at, levels int, deep bool) {
	var (
		stack  []frame
		mode   = atLineStart
		base   int  // the depth of the keys under the table header in force
		depth  int  // the depth of the key being read, or of the value at hand
		inPart bool // inside a key part already counted
	)
	// part counts a key part that starts at i.
	part := func(i int) bool {
		if inPart {
			return false
		}
		inPart = true
		depth++
		levels += depth
		at = i
		return depth > maxNesting || levels > maxKeyLevels
	}
	key := func(from int) { mode, depth, inPart = inKey, from, false }
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch c {
		case '#':
			i = lineEnd(src, i) - 1
			continue
		case '"', '\'':
			if mode == atLineStart {
				key(base)
			}
			if mode != inValue && part(i) {
				return at, levels, depth > maxNesting
			}
			i = stringEnd(src, i) - 1
			continue
		case '\n':
			if len(stack) == 0 {
				mode = atLineStart
			}
			continue
		case ' ', '\t', '\r':
			if mode == inKey || mode == inHeader {
				inPart = false
			}
			continue
		}
		switch mode {
		case atLineStart:
			if c == '[' {
				mode, depth, inPart = inHeader, 0, false
				if i+1 < len(src) && src[i+1] == '[' {
					i++
				}
				continue
			}
			key(base)
			fallthrough
		case inKey, inHeader:
			switch c {
			case '.':
				inPart = false
			case '=':
				if mode == inKey {
					mode = inValue
				}
			case ']':
				if mode == inHeader {
					base, mode = depth, inValue // only a comment may follow
				}
			case '}':
				if n := len(stack); n > 0 && stack[n-1].table {
					stack, mode = stack[:n-1], inValue
				}
			default:
				if part(i) {
					return at, levels, depth > maxNesting
				}
			}
		case inValue:
			switch c {
			case '{':
				stack = append(stack, frame{table: true, depth: depth})
				key(depth)
			case '[':
				depth++
				at = i
				if depth > maxNesting {
					return at, levels, true
				}
				stack = append(stack, frame{depth: depth})
			case ']', '}':
				if n := len(stack); n > 0 && stack[n-1].table == (c == '}') {
					stack = stack[:n-1]
				}
			case ',':
				if n := len(stack); n > 0 {
					if stack[n-1].table {
						key(stack[n-1].depth)
					} else {
						depth = stack[n-1].depth
					}
				}
			}
		}
	}
	return at, levels, false
}

// lineEnd is the index of the line break at or after i, or len(s).
func lineEnd(s string, i int) int {
	if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(s)
}

// stringEnd is the index just past the string that starts with the quote
// at i: a basic string in double quotes, or a multi-line one in three,
// with backslash escapes; a literal string in single quotes, or a
// multi-line one in three, without. A one-line string ends at its line's
// end at the latest, so a stray quote cannot hide the rest of the file
// from the scan.
func stringEnd(s string, i int) int {
	q := s[i]
	if strings.HasPrefix(s[i:], strings.Repeat(string(q), 3)) {
		for j := i + 3; j < len(s); j++ {
			switch {
			case q == '"' && s[j] == '\\':
				j++
			case s[j] == q && strings.HasPrefix(s[j:], strings.Repeat(string(q), 3)):
				// Up to two more quotes are the string's own, before its
				// closing three.
				end := j + 3
				for end < len(s) && end < j+5 && s[end] == q {
					end++
				}
				return end
			}
		}
		return len(s)
	}
	for j := i + 1; j < len(s); j++ {
		switch {
		case q == '"' && s[j] == '\\':
			j++
		case s[j] == q:
			return j + 1
		case s[j] == '\n':
			return j
		}
	}
	return len(s)
}
