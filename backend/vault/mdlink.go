package vault

import (
	"net/url"
	"regexp"
	"strings"
	"sync"
)

// A Markdown link reaches a note of the vault as Obsidian reads it: its
// destination percent-encoded ([x](Plan%20name.md)) or between angle
// brackets ([x](<Plan name.md>)), with or without ".md", by name, by path
// from the vault root or from the linking note's folder, then an optional
// "#Heading" or "#^block" and an optional title. A destination with a
// scheme (https:, mailto:, obsidian:) leaves the vault.

// mdLink is one Markdown link to a file of the vault, as written on a line.
type mdLink struct {
	start, end int // the whole link, "[text](destination)"
	// pathStart and pathEnd bound the destination's path, before any "#".
	pathStart, pathEnd int
	written            string // the path as written
	target             string // the path decoded
	fragment           string // after "#", decoded; "" when none
	angle              bool   // the destination is written <like this>
}

var (
	// One level of balanced parentheses is kept in a destination, as
	// CommonMark does ([x](Plan_(draft).md)).
	mdLinkRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\[[^\]\n]*\]\((?:<([^<>\n]*)>|((?:[^\s()<>]|\([^\s()]*\))+))(?:[ \t]+(?:"[^"\n]*"|'[^'\n]*'))?\)`)
	})
	schemeRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`) })
)

// mdLinks lists the Markdown links of a line that stay in the vault.
func mdLinks(line string) []mdLink {
	var out []mdLink
	for _, m := range mdLinkRE().FindAllStringSubmatchIndex(line, -1) {
		l := mdLink{start: m[0], end: m[1]}
		s, e := m[4], m[5]
		if m[2] >= 0 {
			s, e, l.angle = m[2], m[3], true
		}
		dest := line[s:e]
		if schemeRE().MatchString(dest) {
			continue
		}
		l.pathStart, l.pathEnd = s, e
		if i := strings.IndexByte(dest, '#'); i >= 0 {
			l.pathEnd = s + i
			l.fragment = unescape(dest[i+1:])
		}
		l.written = line[l.pathStart:l.pathEnd]
		if l.target = unescape(l.written); strings.TrimSpace(l.target) == "" {
			continue // [x](#Heading) is within the note
		}
		out = append(out, l)
	}
	return out
}

// unescape decodes a link's percent-encoding; text that is not encoded
// (a "%" of a name between angle brackets) stays as written.
func unescape(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	if d, err := url.PathUnescape(s); err == nil {
		return d
	}
	return s
}
