package vault

import (
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// Note is what the index knows of one note.
type Note struct {
	Path     string              // slash path relative to the vault root
	Front    map[string][]string // front-matter properties
	Aliases  []string
	Tags     []string // without "#", as written, each once
	Links    []Link
	Headings []Heading
	Encoding Encoding
	CRLF     bool
	ModTime  int64 // Unix nanoseconds, to notice changes
	Size     int64
}

// Name is the note's file name without ".md": what Obsidian shows as its
// title and what wikilinks name.
func (n *Note) Name() string {
	base := path.Base(n.Path)
	return strings.TrimSuffix(base, path.Ext(base))
}

// Link is a link from a note to another, as written.
type Link struct {
	Target  string // note name or path, without "#heading" and "|alias"
	Heading string
	Line    int // counting from 1
}

// Heading is a Markdown heading.
type Heading struct {
	Level int
	Text  string
	Line  int // counting from 1
}

var (
	wikilinkRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`!?\[\[([^\[\]\n]+?)\]\]`) })
	// A tag is "#" that does not follow a letter, a digit or a character of
	// a URL or an entity, then letters, digits, "_", "-" or "/" (nested
	// tags); "#123" is not a tag. Chinese text puts one straight after
	// punctuation ("完成。#学习"). Compiled on first use: its Unicode
	// classes cost 76 KB in every process, most of which never read a note.
	tagRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile("(?:^|[^\\p{L}\\p{N}\\p{M}_/&#\\\\`-])#([\\p{L}\\p{N}\\p{M}_/-]+)")
	})
	headingRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$`) })
	inlineCode  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("`+[^`\n]*`+") })
	fenceMarker = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("^ {0,3}(```|~~~)") })
)

// codeFence follows a note's fenced code blocks line by line: no link,
// tag or heading inside one counts.
type codeFence struct{ marker string }

// step takes the next line and reports whether it is a fence's own line
// (one that opens or closes a block, or a fence of the other kind inside
// one), which holds nothing to read either.
func (f *codeFence) step(line string) bool {
	// Cheap checks first: most lines hold no mark the regexp looks for.
	if t := strings.TrimLeft(line, " "); !strings.HasPrefix(t, "```") && !strings.HasPrefix(t, "~~~") {
		return false
	}
	m := fenceMarker().FindStringSubmatch(line)
	if m == nil {
		return false
	}
	switch f.marker {
	case "":
		f.marker = m[1]
	case m[1]:
		f.marker = ""
	}
	return true
}

// inside reports whether the last line stepped is inside a block.
func (f *codeFence) inside() bool { return f.marker != "" }

// parse reads a note's text (with "\n" line endings) into a Note.
func parse(notePath, text string) *Note {
	n := &Note{Path: notePath}
	lines := strings.Split(text, "\n")
	fm, start := frontMatter(lines)
	n.Front = fm
	for _, a := range property(fm, "aliases") {
		n.Aliases = appendUnique(n.Aliases, a)
	}
	for _, a := range property(fm, "alias") {
		n.Aliases = appendUnique(n.Aliases, a)
	}
	for _, key := range []string{"tags", "tag"} {
		for _, v := range property(fm, key) {
			for _, t := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || unicode.IsSpace(r) }) {
				if t = strings.TrimPrefix(t, "#"); validTag(t) {
					n.Tags = appendUnique(n.Tags, t)
				}
			}
		}
	}
	var fence codeFence
	for i := start; i < len(lines); i++ {
		line := lines[i]
		if fence.step(line) || fence.inside() {
			continue
		}
		heading := strings.HasPrefix(line, "#") && headingRE().MatchString(line)
		if heading {
			m := headingRE().FindStringSubmatch(line)
			n.Headings = append(n.Headings, Heading{Level: len(m[1]), Text: m[2], Line: i + 1})
		}
		if strings.Contains(line, "`") {
			line = inlineCode().ReplaceAllString(line, " ")
		}
		if strings.Contains(line, "[[") {
			for _, m := range wikilinkRE().FindAllStringSubmatch(line, -1) {
				target, _, _ := strings.Cut(m[1], "|")
				target, heading, _ := strings.Cut(target, "#")
				if target = strings.TrimSpace(target); target != "" {
					n.Links = append(n.Links, Link{Target: target, Heading: strings.TrimSpace(heading), Line: i + 1})
				}
			}
			// "#" inside a link names a heading, not a tag.
			line = wikilinkRE().ReplaceAllString(line, " ")
		}
		if strings.Contains(line, "](") {
			for _, l := range mdLinks(line) {
				n.Links = append(n.Links, Link{Target: l.target, Heading: l.fragment, Line: i + 1})
			}
			line = mdLinkRE().ReplaceAllString(line, " ")
		}
		if heading {
			line = strings.TrimLeft(line, "#")
		}
		if strings.Contains(line, "#") {
			for _, m := range tagRE().FindAllStringSubmatch(line, -1) {
				if t := strings.Trim(m[1], "/"); validTag(t) {
					n.Tags = appendUnique(n.Tags, t)
				}
			}
		}
	}
	return n
}

// validTag reports whether t can be a tag: not empty and not only digits.
func validTag(t string) bool {
	return t != "" && strings.ContainsFunc(t, func(r rune) bool { return !unicode.IsDigit(r) && r != '/' })
}

func appendUnique(list []string, s string) []string {
	if s == "" || slices.ContainsFunc(list, func(x string) bool { return strings.EqualFold(x, s) }) {
		return list
	}
	return append(list, s)
}

// section returns the lines of text under the heading named want (without
// regard to case; "A#B" names B under A), from the heading to the next
// heading of the same or a higher level, and whether it was found.
func section(n *Note, text, want string) (string, bool) {
	lines := strings.Split(text, "\n")
	sp, _, ok := findSection(n, len(lines), want)
	if !ok {
		return "", false
	}
	return strings.TrimRight(strings.Join(lines[sp.start:sp.end], "\n"), "\n"), true
}
