package vault

import (
	"errors"
	"io/fs"
	"path"
	"slices"
	"strings"

	"hermes/backend/toolbox"
)

// A rename moves a note (or a folder of notes) and rewrites every link to
// it across the vault as Obsidian does: [[wikilinks]], ![[embeds]], links
// to a heading or a block, with an alias or with the "\|" a table needs,
// and Markdown links ([x](Note%20name.md), [x](<Note name>)); links
// inside code spans and code blocks stay, and so does every other byte;
// relink.go says how each link is written anew.

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
		return nil, toolbox.Errorf("give the note to rename and its new path, such as Projects/Plan.md and Archive/Plan 2024.md")
	}
	moves := map[string]string{}
	folder := ""
	if fi, err := v.root.Stat(src); err == nil && fi.IsDir() {
		if _, err := v.root.Lstat(dst); err == nil {
			return nil, toolbox.Errorf("%s already exists; a folder is moved to a new path only, so choose another", dst)
		}
		if strings.HasPrefix(dst+"/", src+"/") {
			return nil, toolbox.Errorf("%s cannot move into itself; choose a path outside it", src)
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
			return nil, toolbox.Errorf("%s is not a Markdown note; rename_note moves notes and folders of notes", p)
		}
		if fi, err := v.root.Stat(dst); err == nil && fi.IsDir() || strings.HasSuffix(to, "/") {
			dst = path.Join(dst, path.Base(p)) // into a folder, keeping the name
		}
		if path.Ext(dst) == "" {
			dst += ".md"
		}
		if !isNote(dst) {
			return nil, toolbox.Errorf("%q is not a Markdown note's name: a note keeps the .md extension; give a path such as %q", to, strings.TrimSuffix(dst, path.Ext(dst))+".md")
		}
		if i := strings.IndexAny(noteName(dst), `[]#^|:*?"<>`); i >= 0 {
			return nil, toolbox.Errorf("%q cannot be a note name: %q breaks Obsidian links or is not allowed in file names; choose a name without [ ] # ^ | : * ? \" < >", to, noteName(dst)[i:i+1])
		}
		if dst == p {
			return nil, toolbox.Errorf("%s is already the note's path; give a new one", p)
		}
		if _, err := v.root.Lstat(dst); err == nil && !strings.EqualFold(dst, p) {
			return nil, toolbox.Errorf("%s already exists and a rename never replaces a note; choose another name", dst)
		} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, toolError(dst, err)
		}
		moves[p] = dst
	}
	if len(moves) == 0 {
		return nil, toolbox.Errorf("%s holds no notes to move", src)
	}

	v.rlockAll()
	defer v.mu.RUnlock()
	r := &renamer{v: v, moves: moves, after: v.names.moved(moves, v.notes), format: v.linkSettings().NewLinkFormat}
	if folder != "" {
		r.folder = [2]string{folder, dst}
	}
	concerned := map[string]bool{}
	for p := range moves {
		concerned[p] = true // its own relative links may change
	}
	// A link can lead to a moved note, or be taken by one, only if it ends
	// with the note's name, old or new, or is one of its aliases: the
	// others are not resolved at all.
	ends := map[string]bool{}
	for p, q := range moves {
		ends[strings.ToLower(noteName(p))] = true
		ends[strings.ToLower(noteName(q))] = true
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
			if folder != "" && intoFolder(l.Target, p, folder) {
				concerned[p] = true // may lead to a file of the folder
				break
			}
			if !mayLead(l.Target) {
				continue
			}
			if r.concerns(l.Target, p) {
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
					if r.concerns(strings.TrimSpace(target), p) {
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
