package vault

import (
	"regexp"
	"strings"
	"sync"
)

// A section is a heading and the lines under it up to the next heading of
// the same or a higher level; a block is a paragraph, list item, table or
// quote marked with "^id" at its end, as [[Note#^id]] links to it.

// span is a run of lines [start, end) of a note, counting from 0.
type span struct{ start, end int }

var blockIDRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:^|\s)\^([A-Za-z0-9-]+)\s*$`) })

// headingKey is how a heading is matched: without regard to case, spaces
// and the characters Obsidian leaves out of a link to a heading.
func headingKey(s string) string {
	s = strings.Map(func(r rune) rune {
		switch r {
		case '#', '|', '^', ':', '[', ']', '\\':
			return ' '
		}
		return r
	}, s)
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// findSection finds the section a heading names: "Goals", or a path of
// headings such as "Plan#Goals" ([[Note#Plan#Goals]]) for a heading under
// another when several share a name. lines are the note's lines.
func findSection(n *Note, lines int, want string) (span, Heading, bool) {
	parts := strings.Split(strings.Trim(strings.TrimSpace(want), "#"), "#")
	end := func(i int) int {
		for _, next := range n.Headings[i+1:] {
			if next.Level <= n.Headings[i].Level {
				return next.Line - 1
			}
		}
		return lines
	}
	// Each part is looked for inside the section of the one before it.
	from, to, found := 0, lines, -1
	for _, part := range parts {
		key, next := headingKey(part), -1
		for i, h := range n.Headings {
			if i <= found || h.Line-1 < from {
				continue
			}
			if h.Line-1 >= to {
				break
			}
			if headingKey(h.Text) == key {
				next = i
				break
			}
		}
		if found = next; found < 0 {
			break
		}
		from, to = n.Headings[found].Line-1, end(found)
	}
	if found < 0 && len(parts) > 1 {
		// Obsidian finds [[Note#A#B]] by its last heading too.
		return findSection(n, lines, parts[len(parts)-1])
	}
	if found < 0 {
		return span{}, Heading{}, false
	}
	return span{from, to}, n.Headings[found], true
}

// findBlock finds the block marked ^id (given with or without "^"): the
// list item that ends with it (with the lines indented under it), the
// paragraph that ends with it, or the table, quote or paragraph just above
// a line that holds only the marker.
func findBlock(lines []string, id string) (span, bool) {
	id = strings.TrimPrefix(strings.TrimSpace(id), "^")
	top := 0 // a block never starts in the front matter
	if _, close, ok := frontBounds(lines); ok {
		top = close + 1
	}
	blank := func(j int) bool { return strings.TrimSpace(lines[j]) == "" }
	// up is the first line of the block that ends at line i.
	up := func(i int, stop func(string) bool) int {
		for i > top && !blank(i-1) && !isHeadingLine(lines[i-1]) && !stop(lines[i-1]) {
			i--
		}
		return i
	}
	never := func(string) bool { return false }
	for _, i := range markedLines(lines, top) {
		line := strings.TrimRight(lines[i], "\r")
		m := blockIDRE().FindStringSubmatch(line)
		if !strings.EqualFold(m[1], id) {
			continue
		}
		if strings.TrimSpace(line) == "^"+m[1] {
			// A marker of its own marks the table, quote or list above it,
			// a blank line between them or not.
			end := i
			for end > top && blank(end-1) {
				end--
			}
			return span{up(end, never), i + 1}, true
		}
		if listItem(line) {
			indent := len(line) - len(strings.TrimLeft(line, " \t"))
			end := i + 1
			for end < len(lines) && !blank(end) {
				l := lines[end]
				if len(l)-len(strings.TrimLeft(l, " \t")) <= indent {
					break
				}
				end++
			}
			return span{i, end}, true
		}
		return span{up(i, listItem), i + 1}, true
	}
	return span{}, false
}

// markedLines are the indexes of the lines from top that end with a block
// marker, outside code blocks.
func markedLines(lines []string, top int) []int {
	var out []int
	var fence codeFence
	for i := top; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], "\r")
		if fence.step(line) {
			continue
		}
		if !fence.inside() && strings.Contains(line, "^") && blockIDRE().MatchString(line) {
			out = append(out, i)
		}
	}
	return out
}

var listItemRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*(?:[-*+]|\d+[.)])\s`) })

func listItem(line string) bool { return listItemRE().MatchString(line) }

func isHeadingLine(line string) bool {
	return strings.HasPrefix(line, "#") && headingRE().MatchString(strings.TrimRight(line, "\r"))
}

// blockIDs lists the ^ids a note's blocks are marked with.
func blockIDs(lines []string) []string {
	top := 0
	if _, close, ok := frontBounds(lines); ok {
		top = close + 1
	}
	var out []string
	for _, i := range markedLines(lines, top) {
		out = append(out, "^"+blockIDRE().FindStringSubmatch(strings.TrimRight(lines[i], "\r"))[1])
	}
	return out
}

// headingNames lists a note's headings, each indented by its level, for an
// error that says which there are.
func headingNames(n *Note) string {
	var names []string
	for _, h := range n.Headings {
		names = append(names, strings.Repeat("#", h.Level)+" "+h.Text)
	}
	return strings.Join(names, "; ")
}
