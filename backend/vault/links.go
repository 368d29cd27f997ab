package vault

import (
	"cmp"
	"maps"
	"path"
	"slices"
	"strings"
)

// nameIndex finds notes the ways a wikilink names them: by file name, by
// path, and by alias, all without regard to case. Keys have no ".md".
type nameIndex struct {
	byName  map[string][]string // "plan" → every note called Plan.md
	byPath  map[string]string   // "projects/plan" → "Projects/Plan.md"
	byAlias map[string][]string
}

func newNameIndex() nameIndex { return newNameIndexSized(0) }

// newNameIndexSized makes room for n notes at once, so that loading a
// saved index does not grow the maps step by step.
func newNameIndexSized(n int) nameIndex {
	return nameIndex{byName: make(map[string][]string, n), byPath: make(map[string]string, n), byAlias: map[string][]string{}}
}

func (x nameIndex) add(n *Note) {
	x.byPath[linkKey(n.Path)] = n.Path
	name := strings.ToLower(n.Name())
	x.byName[name] = append(x.byName[name], n.Path)
	for _, a := range n.Aliases {
		a = strings.ToLower(a)
		x.byAlias[a] = append(x.byAlias[a], n.Path)
	}
}

func (x nameIndex) remove(n *Note) {
	delete(x.byPath, linkKey(n.Path))
	drop := func(m map[string][]string, key string) {
		if rest := slices.DeleteFunc(m[key], func(p string) bool { return p == n.Path }); len(rest) > 0 {
			m[key] = rest
		} else {
			delete(m, key)
		}
	}
	drop(x.byName, strings.ToLower(n.Name()))
	for _, a := range n.Aliases {
		drop(x.byAlias, strings.ToLower(a))
	}
}

// moved is the index as it is once the notes in moves (old path → new)
// have moved, their aliases with them; x stays as it is. remove and add
// change a list in place, so the copy owns each list it changes.
func (x nameIndex) moved(moves map[string]string, notes map[string]*Note) nameIndex {
	y := nameIndex{byName: maps.Clone(x.byName), byPath: maps.Clone(x.byPath), byAlias: maps.Clone(x.byAlias)}
	own := func(m map[string][]string, key string) {
		if l, ok := m[key]; ok {
			m[key] = slices.Clone(l)
		}
	}
	for old, p := range moves {
		var aliases []string
		if n := notes[old]; n != nil {
			aliases = n.Aliases
		}
		own(y.byName, strings.ToLower(noteName(old)))
		own(y.byName, strings.ToLower(noteName(p)))
		for _, a := range aliases {
			own(y.byAlias, strings.ToLower(a))
		}
		y.remove(&Note{Path: old, Aliases: aliases})
	}
	for old, p := range moves {
		var aliases []string
		if n := notes[old]; n != nil {
			aliases = n.Aliases
		}
		y.add(&Note{Path: p, Aliases: aliases})
	}
	return y
}

// linkKey is a path or link target as the name index keys it.
func linkKey(p string) string {
	p = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(p), "/"))
	return strings.TrimSuffix(p, ".md")
}

// resolve finds the note a link target names, as Obsidian does: a path
// from the vault root, else a path relative to the linking note, else the
// notes whose path ends with the target (the nearest to the linking note,
// then the shortest path, wins), else a front-matter alias. from is the
// linking note's path ("" when there is none).
func (x nameIndex) resolve(target, from string) (string, bool) {
	key := linkKey(target)
	if key == "" {
		return "", false
	}
	if p, ok := x.byPath[key]; ok {
		return p, true
	}
	if from != "" {
		if p, ok := x.byPath[linkKey(path.Join(path.Dir(from), target))]; ok {
			return p, true
		}
	}
	var candidates []string
	if i := strings.LastIndex(key, "/"); i >= 0 {
		for _, p := range x.byName[key[i+1:]] {
			if strings.HasSuffix(linkKey(p), "/"+key) {
				candidates = append(candidates, p)
			}
		}
	} else {
		candidates = x.byName[key]
	}
	if len(candidates) == 0 {
		candidates = x.byAlias[key]
	}
	if len(candidates) == 0 {
		return "", false
	}
	return slices.MinFunc(candidates, func(a, b string) int {
		if from != "" {
			if c := cmp.Compare(distance(from, a), distance(from, b)); c != 0 {
				return c
			}
		}
		if c := cmp.Compare(strings.Count(a, "/"), strings.Count(b, "/")); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	}), true
}

// distance counts the folders between two notes: 0 in the same folder.
func distance(a, b string) int {
	da, db := strings.Split(path.Dir(a), "/"), strings.Split(path.Dir(b), "/")
	common := 0
	for common < len(da) && common < len(db) && da[common] == db[common] {
		common++
	}
	return len(da) + len(db) - 2*common
}

// Resolve finds the note a wikilink target ("Plan", "Projects/Plan",
// "Plan.md", an alias) names, as seen from the note at from ("" for none).
func (v *Vault) Resolve(target, from string) (string, bool) {
	v.rlockAll()
	defer v.mu.RUnlock()
	return v.names.resolve(target, from)
}

// Backlink is a link to a note from another.
type Backlink struct {
	From string // the linking note's path
	Link Link
}

// Backlinks lists the links that resolve to the note at p, by linking note
// and line.
func (v *Vault) Backlinks(p string) []Backlink {
	v.rlockAll()
	defer v.mu.RUnlock()
	var out []Backlink
	for from, n := range v.notes {
		for _, l := range n.Links {
			if to, ok := v.names.resolve(l.Target, from); ok && to == p && from != p {
				out = append(out, Backlink{From: from, Link: l})
			}
		}
	}
	slices.SortFunc(out, func(a, b Backlink) int {
		return cmp.Or(cmp.Compare(a.From, b.From), cmp.Compare(a.Link.Line, b.Link.Line))
	})
	return out
}
