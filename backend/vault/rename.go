package vault

import (
	"errors"
	"io/fs"
	"net/url"
	"path"
	"slices"
	"strings"

	"hermes/backend/skills"
)

// A rename moves a note (or a folder of notes) and rewrites every link to
// it across the vault as Obsidian does: [[wikilinks]], ![[embeds]], links
// to a heading or a block, with an alias or with the "\|" a table needs,
// and relative Markdown links ([x](Note%20name.md)); links inside code
// spans and code blocks stay, and so does every other byte. A link that
// named the note by its name names it by its new name when no other note
// has it (Obsidian's shortest path), else by its path; a relative link
// stays relative; a link through an alias stays as it was.

// renamer rewrites the links of the notes that a move concerns; v.mu is
// read-locked while it works.
type renamer struct {
	v     *Vault
	moves map[string]string // old note path → new
}

// newPathOf is where the note at p is after the move.
func (r *renamer) newPathOf(p string) string {
	if q, ok := r.moves[p]; ok {
		return q
	}
	return p
}

// unique reports whether, after the move, no other note is called name.
func (r *renamer) unique(name, self string) bool {
	for _, p := range r.v.names.byName[strings.ToLower(name)] {
		if p != self && r.newPathOf(p) == p {
			return false
		}
	}
	for old, q := range r.moves {
		if old != self && strings.EqualFold(noteName(q), name) {
			return false
		}
	}
	return true
}

func noteName(p string) string {
	base := path.Base(p)
	return strings.TrimSuffix(base, path.Ext(base))
}

// linkStyle is how a link names the note at to: by its name, by its path
// from the vault root, relative to the linking note, or through an alias.
type linkStyle int

const (
	styleAlias linkStyle = iota
	styleName
	stylePath
	styleRelative
)

func styleOf(target, from, to string, markdown bool) linkStyle {
	key := linkKey(target)
	name := key[strings.LastIndex(key, "/")+1:]
	relative := from != "" && linkKey(path.Join(path.Dir(from), target)) == linkKey(to)
	switch {
	case markdown && relative:
		return styleRelative
	case !strings.Contains(key, "/") && name == strings.ToLower(noteName(to)):
		return styleName
	case key == linkKey(to) || strings.HasSuffix(linkKey(to), "/"+key):
		return stylePath
	case relative:
		return styleRelative
	}
	return styleAlias
}

// retarget is what a link written target in the note from should say
// after the move, and whether it changes.
func (r *renamer) retarget(target, from string, markdown bool) (string, bool) {
	to, ok := r.v.names.resolve(target, from)
	if !ok {
		return "", false
	}
	newTo, newFrom := r.newPathOf(to), r.newPathOf(from)
	if newTo == to && newFrom == from {
		return "", false
	}
	style := styleOf(target, from, to, markdown)
	var s string
	switch style {
	case styleAlias:
		return "", false
	case styleRelative:
		s = relativePath(path.Dir(newFrom), newTo)
	default:
		if newTo == to {
			return "", false // a name or a path from the root still resolves
		}
		if r.unique(noteName(newTo), to) {
			s = noteName(newTo) + path.Ext(newTo)
		} else {
			s = newTo
		}
	}
	if !markdown && !strings.HasSuffix(strings.ToLower(target), ".md") {
		s = strings.TrimSuffix(s, path.Ext(s))
	}
	if markdown {
		return s, true
	}
	return s, s != target
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
	fence := ""
	changed := false
	for i, line := range lines {
		if t := strings.TrimLeft(line, " "); strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			if m := fenceMarker().FindStringSubmatch(line); m != nil {
				switch fence {
				case "":
					fence = m[1]
				case m[1]:
					fence = ""
				}
				continue
			}
		}
		if fence != "" || !strings.Contains(line, "[[") && !strings.Contains(line, "](") {
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
		if s, ok := r.retarget(strings.TrimSpace(target), from, false); ok {
			edits = append(edits, edit{m[2], m[2] + len(target), s})
		}
	}
	for _, m := range mdLinkRE().FindAllStringSubmatchIndex(line, -1) {
		if inCode(m[0], m[1]) {
			continue
		}
		written := line[m[2]:m[3]]
		if strings.Contains(written, "://") {
			continue
		}
		target, err := url.PathUnescape(written)
		if err != nil {
			target = written
		}
		if s, ok := r.retarget(target, from, true); ok {
			if s = encodeLink(s, written); s != written {
				edits = append(edits, edit{m[2], m[3], s})
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

// planRename plans moving the note or folder at from to to.
func (v *Vault) planRename(from, to string) (*plan, error) {
	src, err := v.clean(from)
	if err != nil {
		return nil, toolError(from, err)
	}
	dst, err := v.clean(to)
	if err != nil {
		return nil, toolError(to, err)
	}
	if src == "" || dst == "" {
		return nil, skills.Errorf("give the note to rename and its new path, such as Projects/Plan.md and Archive/Plan 2024.md")
	}
	moves := map[string]string{}
	folder := ""
	if fi, err := v.root.Stat(src); err == nil && fi.IsDir() {
		if _, err := v.root.Lstat(dst); err == nil {
			return nil, skills.Errorf("%s already exists; a folder is moved to a new path only, so choose another", dst)
		}
		if strings.HasPrefix(dst+"/", src+"/") {
			return nil, skills.Errorf("%s cannot move into itself; choose a path outside it", src)
		}
		folder = src
		v.rlockAll()
		for p := range v.notes {
			if rest, ok := strings.CutPrefix(p, src+"/"); ok {
				moves[p] = dst + "/" + rest
			}
		}
		v.mu.RUnlock()
	} else {
		p, _, err := v.findNote(from)
		if err != nil {
			return nil, err
		}
		if !isNote(p) {
			return nil, skills.Errorf("%s is not a Markdown note; rename_note moves notes and folders of notes", p)
		}
		if fi, err := v.root.Stat(dst); err == nil && fi.IsDir() || strings.HasSuffix(to, "/") {
			dst = path.Join(dst, path.Base(p)) // into a folder, keeping the name
		}
		if path.Ext(dst) == "" {
			dst += ".md"
		}
		if !isNote(dst) {
			return nil, skills.Errorf("%q is not a Markdown note's name: a note keeps the .md extension; give a path such as %q", to, strings.TrimSuffix(dst, path.Ext(dst))+".md")
		}
		if i := strings.IndexAny(noteName(dst), `[]#^|:*?"<>`); i >= 0 {
			return nil, skills.Errorf("%q cannot be a note name: %q breaks Obsidian links or is not allowed in file names; choose a name without [ ] # ^ | : * ? \" < >", to, noteName(dst)[i:i+1])
		}
		if dst == p {
			return nil, skills.Errorf("%s is already the note's path; give a new one", p)
		}
		if _, err := v.root.Lstat(dst); err == nil && !strings.EqualFold(dst, p) {
			return nil, skills.Errorf("%s already exists and a rename never replaces a note; choose another name", dst)
		} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, toolError(dst, err)
		}
		moves[p] = dst
	}
	if len(moves) == 0 {
		return nil, skills.Errorf("%s holds no notes to move", src)
	}

	v.rlockAll()
	defer v.mu.RUnlock()
	r := &renamer{v: v, moves: moves}
	concerned := map[string]bool{}
	for p := range moves {
		concerned[p] = true // its own relative links may change
	}
	// A link can lead to a moved note only if it ends with the note's name
	// or is one of its aliases: the others are not resolved at all.
	ends := map[string]bool{}
	for p := range moves {
		ends[strings.ToLower(noteName(p))] = true
		if n := v.notes[p]; n != nil {
			for _, a := range n.Aliases {
				ends[linkKey(a)] = true
			}
		}
	}
	mayLead := func(target string) bool {
		key := linkKey(target)
		return ends[key] || ends[key[strings.LastIndexByte(key, '/')+1:]]
	}
	for p, n := range v.notes {
		if concerned[p] {
			continue
		}
		for _, l := range n.Links {
			if !mayLead(l.Target) {
				continue
			}
			if to, ok := v.names.resolve(l.Target, p); ok && moves[to] != "" {
				concerned[p] = true
				break
			}
		}
		for _, vs := range n.Front {
			for _, s := range vs {
				if !strings.Contains(s, "[[") {
					continue
				}
				for _, m := range wikilinkRE().FindAllStringSubmatch(s, -1) {
					target, _, _ := strings.Cut(m[1], "|")
					target, _, _ = strings.Cut(target, "#")
					if to, ok := v.names.resolve(strings.TrimSpace(target), p); ok && moves[to] != "" {
						concerned[p] = true
					}
				}
			}
		}
	}
	pl := &plan{tool: "rename_note", dir: [2]string{folder, ""}}
	if folder != "" {
		pl.dir[1] = dst
	}
	for _, p := range slices.Sorted(func(yield func(string) bool) {
		for p := range concerned {
			if !yield(p) {
				return
			}
		}
	}) {
		before, err := v.root.ReadFile(p)
		if err != nil {
			return nil, toolError(p, err)
		}
		raw := decodeRaw(before)
		after := before
		if raw.Encoding != Unknown {
			if text := r.rewrite(raw.Text, p); text != raw.Text {
				raw.Text = text
				if after, err = raw.Encode(); err != nil {
					return nil, toolError(p, err)
				}
			}
		}
		if moves[p] == "" && string(after) == string(before) {
			continue
		}
		pl.files = append(pl.files, fileEdit{
			path: p, newPath: moves[p], before: before, after: after,
			beforeText: Decode(before).Text, afterText: Decode(after).Text,
		})
	}
	return pl, nil
}
