package vault

import (
	"net/url"
	"path"
	"slices"
	"strings"
)

// A rename rewrites each link to a moved note in its own form (see
// rename.go): a wikilink stays a wikilink and a Markdown link a Markdown
// link, with or without ".md", encoded or between angle brackets as it
// was; a link by name names the new name, one by path from the vault root
// the new path (a leading "/" kept), one relative to the linking note the
// new relative path ("./" kept), one through an alias stays. The vault's
// link format (see linkformat.go) decides a link that several forms
// describe (a Markdown link to a note in the same folder is by name and
// relative) and what a link becomes when its form no longer leads to its
// note: a new name another note has too, or a link to an unmoved note by
// the name the moved one now shares, is written as a path, relative when
// the vault writes relative links, else from the root.

// renamer rewrites the links of the notes that a move concerns; v.mu is
// read-locked while it works.
type renamer struct {
	v      *Vault
	moves  map[string]string // old note path → new
	folder [2]string         // a folder moved whole (from, to), attachments and all
	after  nameIndex         // the names once moved
	format string            // the vault's newLinkFormat
}

// newPathOf is where the note at p is after the move.
func (r *renamer) newPathOf(p string) string {
	if q, ok := r.moves[p]; ok {
		return q
	}
	return p
}

func noteName(p string) string {
	base := path.Base(p)
	return strings.TrimSuffix(base, path.Ext(base))
}

// linkStyle is how a link names its note.
type linkStyle int

const (
	styleAlias    linkStyle = iota // through a front-matter alias
	styleName                      // by its name
	styleAbsolute                  // by its path from the vault root
	styleRelative                  // by its path from the linking note's folder
	styleSuffix                    // by the end of its path (Projects/Plan)
)

// styleOf is the form of a link written target in the note from to the
// note at to.
func (r *renamer) styleOf(target, from, to string, markdown bool) linkStyle {
	switch {
	case strings.HasPrefix(target, "/"):
		return styleAbsolute
	case strings.HasPrefix(target, "./") || strings.HasPrefix(target, "../"):
		return styleRelative
	}
	key, toKey := linkKey(target), linkKey(to)
	name := !strings.Contains(key, "/") && key == strings.ToLower(noteName(to))
	abs := key == toKey
	rel := linkKey(path.Join(path.Dir(from), target)) == toKey
	switch {
	case r.format == formatRelative && rel:
		return styleRelative
	case r.format == formatAbsolute && abs:
		return styleAbsolute
	case name, !markdown && r.format == formatShortest && (abs || strings.HasSuffix(toKey, "/"+key)):
		// Obsidian writes a wikilink it updates the shortest way, by the
		// name alone while no other note has it (relink then writes a path).
		return styleName
	case markdown && rel:
		return styleRelative
	case abs:
		return styleAbsolute
	case rel:
		return styleRelative
	case strings.HasSuffix(toKey, "/"+key):
		return styleSuffix
	}
	return styleAlias
}

// concerns reports whether the move changes where a link written target
// in the unmoved note from leads, or what it should say.
func (r *renamer) concerns(target, from string) bool {
	to, ok := r.v.names.resolve(target, from)
	if !ok {
		return false
	}
	if _, moved := r.moves[to]; moved {
		return true
	}
	now, _ := r.after.resolve(target, from)
	return now != to || r.madeAmbiguous(target)
}

// madeAmbiguous reports whether a link by a name only one note had names
// two once moved: whichever a reader's resolver picks, a path says which.
func (r *renamer) madeAmbiguous(target string) bool {
	key := linkKey(target)
	return !strings.Contains(key, "/") && len(r.v.names.byName[key]) == 1 && len(r.after.byName[key]) > 1
}

// relink is what a link written target (decoded, without "#" and alias)
// in the note from should say after the move, and whether it changes.
func (r *renamer) relink(target, from string, markdown bool) (string, bool) {
	to, ok := r.v.names.resolve(target, from)
	if !ok {
		return r.relinkFile(target, from, markdown)
	}
	newTo, newFrom := r.newPathOf(to), r.newPathOf(from)
	// A link to a note that stays, which still leads there from where its
	// own note is now, stays as written: [[Embed Files]] to "Embed
	// files.md" in a moved note keeps the case of its name.
	if newTo == to {
		if now, ok := r.after.resolve(target, newFrom); ok && now == to && !r.madeAmbiguous(target) {
			return "", false
		}
	}
	withExt := strings.EqualFold(path.Ext(target), path.Ext(to))
	bare := strings.TrimSuffix(newTo, path.Ext(newTo))
	var s string
	style := r.styleOf(target, from, to, markdown)
	switch style {
	case styleAlias:
		s = target
	case styleName:
		s = noteName(newTo)
		if len(r.after.byName[strings.ToLower(s)]) > 1 {
			s = "" // another note has the name: a path, below
		}
	case styleAbsolute:
		s = bare
		if strings.HasPrefix(target, "/") {
			s = "/" + s
		}
	case styleRelative:
		s = r.relative(newFrom, newTo)
		if strings.HasPrefix(target, "./") && !strings.HasPrefix(s, "../") {
			s = "./" + s
		}
	case styleSuffix:
		s = bare
	}
	if s != "" && style != styleAlias && withExt {
		s += path.Ext(newTo)
	}
	if s == "" || !r.leadsTo(s, newFrom, newTo) {
		s = r.path(newFrom, newTo)
		if withExt {
			s += path.Ext(newTo)
		}
	}
	return s, s != target
}

// relinkFile is relink for a link to a file that is not a note (an image,
// a PDF) by its path: from the linking note's folder, or from the root.
// A file is never renamed, but it moves with its folder, and the linking
// note may move away from it. A link by the file's name alone stays, as
// Obsidian finds it anywhere in the vault; so does a wikilink by the end
// of the file's path while that still ends it.
func (r *renamer) relinkFile(target, from string, markdown bool) (string, bool) {
	if !strings.Contains(target, "/") {
		return "", false
	}
	explicit := strings.HasPrefix(target, "./") || strings.HasPrefix(target, "../")
	newFrom := r.newPathOf(from)
	p, relative := path.Join(path.Dir(from), target), true
	switch {
	case strings.HasPrefix(target, "/"):
		p, relative = path.Clean(target[1:]), false
	case !r.isFile(p):
		p, relative = path.Clean(target), false
	}
	if !r.isFile(p) {
		return "", false
	}
	if relative && !explicit && path.Clean(target) == p {
		// From a note at the root, by path from the root and relative both,
		// in the form the vault writes, as for a note (styleOf).
		relative = r.format == formatRelative || markdown && r.format != formatAbsolute
	}
	newP := p
	if rest, ok := strings.CutPrefix(p, r.folder[0]+"/"); ok && r.folder[0] != "" {
		newP = r.folder[1] + "/" + rest
	}
	if newP == p && newFrom == from {
		return "", false
	}
	if !markdown && !explicit {
		// Obsidian resolves a wikilink's path from the root or by its end.
		end := strings.ToLower(path.Clean(strings.TrimPrefix(target, "/")))
		if low := strings.ToLower(newP); low == end || strings.HasSuffix(low, "/"+end) {
			return "", false
		}
		relative = r.format == formatRelative
	}
	s := newP
	switch {
	case relative:
		s = relativePath(path.Dir(newFrom), newP)
		if strings.HasPrefix(target, "./") && !strings.HasPrefix(s, "../") {
			s = "./" + s
		}
	case strings.HasPrefix(target, "/"):
		s = "/" + newP
	}
	return s, s != target
}

// isFile reports whether p is a file of the vault that is not a note.
func (r *renamer) isFile(p string) bool {
	if isNote(p) || p == "." || strings.HasPrefix(p, "../") {
		return false
	}
	fi, err := r.v.root.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// relative is the path of the note at to from the folder of the note at
// from, without ".md".
func (r *renamer) relative(from, to string) string {
	return strings.TrimSuffix(relativePath(path.Dir(from), to), path.Ext(to))
}

// path is the link Obsidian writes to the note at to when its name is not
// enough: its path from the linking note's folder when the vault writes
// relative links, else from the root; without ".md".
func (r *renamer) path(from, to string) string {
	if r.format == formatRelative {
		if s := r.relative(from, to); r.leadsTo(s, from, to) {
			return s
		}
	}
	return strings.TrimSuffix(to, path.Ext(to))
}

// leadsTo reports whether a link written s in the note from leads to the
// note at to once moved.
func (r *renamer) leadsTo(s, from, to string) bool {
	got, ok := r.after.resolve(s, from)
	return ok && got == to
}

// relativePath is the path from the folder dir to the file p, both from
// the vault root.
func relativePath(dir, p string) string {
	if dir == "." {
		return p
	}
	from, to := strings.Split(dir, "/"), strings.Split(p, "/")
	common := 0
	for common < len(from) && common < len(to)-1 && from[common] == to[common] {
		common++
	}
	parts := make([]string, 0, len(from)-common+len(to)-common)
	for range len(from) - common {
		parts = append(parts, "..")
	}
	return strings.Join(append(parts, to[common:]...), "/")
}

// rewrite returns a note's text (line endings as on disk) with its links
// to moved notes rewritten; from is the note's path before the move.
func (r *renamer) rewrite(raw, from string) string {
	lines := strings.Split(raw, "\n")
	var fence codeFence
	changed := false
	for i, line := range lines {
		if fence.step(line) || fence.inside() || !strings.Contains(line, "[[") && !strings.Contains(line, "](") {
			continue
		}
		if out := r.rewriteLine(line, from); out != line {
			lines[i], changed = out, true
		}
	}
	if !changed {
		return raw
	}
	return strings.Join(lines, "\n")
}

// edit is a replacement of line[start:end].
type edit struct {
	start, end int
	text       string
}

func (r *renamer) rewriteLine(line, from string) string {
	code := inlineCode().FindAllStringIndex(line, -1)
	inCode := func(start, end int) bool {
		for _, c := range code {
			if start < c[1] && end > c[0] {
				return true
			}
		}
		return false
	}
	var edits []edit
	for _, m := range wikilinkRE().FindAllStringSubmatchIndex(line, -1) {
		if inCode(m[0], m[1]) {
			continue
		}
		inner := line[m[2]:m[3]]
		end := len(inner)
		if i := strings.IndexByte(inner, '|'); i >= 0 {
			end = i
			if i > 0 && inner[i-1] == '\\' {
				end = i - 1 // "\|" in a table
			}
		}
		target := inner[:end]
		if i := strings.IndexByte(target, '#'); i >= 0 {
			target = target[:i]
		}
		if strings.TrimSpace(target) == "" {
			continue // [[#Heading]] is within the note
		}
		if s, ok := r.relink(strings.TrimSpace(target), from, false); ok {
			edits = append(edits, edit{m[2], m[2] + len(target), s})
		}
	}
	if strings.Contains(line, "](") {
		for _, l := range mdLinks(line) {
			if inCode(l.start, l.end) {
				continue
			}
			s, ok := r.relink(l.target, from, true)
			if !ok {
				continue
			}
			if !l.angle {
				s = encodeLink(s, l.written)
			}
			if s != l.written {
				edits = append(edits, edit{l.pathStart, l.pathEnd, s})
			}
		}
	}
	if len(edits) == 0 {
		return line
	}
	slices.SortFunc(edits, func(a, b edit) int { return b.start - a.start })
	for _, e := range edits {
		line = line[:e.start] + e.text + line[e.end:]
	}
	return line
}

// intoFolder reports whether a link written target in the note from may
// lead into folder by its path, from the note's folder or from the root.
func intoFolder(target, from, folder string) bool {
	prefix := strings.ToLower(folder) + "/"
	return strings.HasPrefix(strings.ToLower(path.Join(path.Dir(from), target)), prefix) ||
		strings.HasPrefix(strings.ToLower(path.Clean(strings.TrimPrefix(target, "/"))), prefix)
}

// encodeLink writes a Markdown link's path as the link it replaces was
// written: every character beyond ASCII escaped if it escaped them, else
// only what a link cannot hold (spaces, parentheses, "%").
func encodeLink(p, was string) string {
	full := false
	if decoded, err := url.PathUnescape(was); err == nil && decoded != was {
		for _, r := range decoded {
			if r > 127 && !strings.ContainsRune(was, r) {
				full = true
			}
		}
	}
	if full {
		parts := strings.Split(p, "/")
		for i, s := range parts {
			parts[i] = url.PathEscape(s)
		}
		return strings.Join(parts, "/")
	}
	return strings.NewReplacer("%", "%25", " ", "%20", "(", "%28", ")", "%29", "<", "%3C", ">", "%3E").Replace(p)
}
