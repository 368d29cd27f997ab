package vault

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"sync"

	"hermes/backend/atomicfile"
	"hermes/backend/runlog"
	"hermes/backend/toolbox"
)

// An edit is planned first and applied after: the plan is what the
// approval dialog shows (Preview), and applying it checks that no note
// changed in between.

// plan is the files an edit writes.
type plan struct {
	tool  string
	files []fileEdit
	// dir is a folder moved whole (from, to): its notes are written in
	// place, then the folder is renamed, attachments and all.
	dir [2]string
}

// fileEdit is one note an edit changes, creates or moves.
type fileEdit struct {
	path    string // as it is now
	newPath string // where it goes; "" when it stays
	before  []byte // nil for a note created
	after   []byte
	// beforeText and afterText are the decoded texts, "\n" line endings.
	beforeText, afterText string
}

// Change is what an edit does to the vault, Markdown-aware: for the
// approval dialog before it is applied, and for the card and Undo after.
type Change struct {
	Tool  string       `json:"tool"`
	Notes []NoteChange `json:"notes"`
	// Folder is a folder moved whole, attachments and all.
	Folder *FolderMove `json:"folder,omitempty"`
}

// FolderMove is a folder renamed.
type FolderMove struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// NoteChange is what an edit does to one note.
type NoteChange struct {
	Path    string `json:"path"`
	NewPath string `json:"new_path,omitempty"` // the note was renamed or moved
	Created bool   `json:"created,omitempty"`
	// Properties are the front-matter keys added, changed or removed.
	Properties []PropertyChange `json:"properties,omitempty"`
	// Links are the links changed ([[Old]] → [[New]]), added (no before)
	// or removed (no after).
	Links           []LinkChange `json:"links,omitempty"`
	SectionsAdded   []string     `json:"sections_added,omitempty"`
	SectionsRemoved []string     `json:"sections_removed,omitempty"`
	// Hunks are the lines that differ, for a word-level diff.
	Hunks []Hunk `json:"hunks,omitempty"`
	// BeforeRef is the artifact that keeps the note's previous bytes, once
	// applied in a run; AfterSHA256 the new bytes' hash, so that Undo can
	// refuse a note changed since.
	BeforeRef   string `json:"before_ref,omitempty"`
	AfterSHA256 string `json:"after_sha256"`
}

// PropertyChange is a front-matter key added, changed or removed, with its
// values (nil for a key without one).
type PropertyChange struct {
	Name    string `json:"name"`
	Before  any    `json:"before,omitempty"`
	After   any    `json:"after,omitempty"`
	Added   bool   `json:"added,omitempty"`
	Removed bool   `json:"removed,omitempty"`
}

// LinkChange is a link written differently at a line.
type LinkChange struct {
	Line   int    `json:"line"`
	Before string `json:"before,omitempty"`
	After  string `json:"after,omitempty"`
}

// Hunk is a run of lines replaced by others, from line Line (counting
// from 1) of the note before.
type Hunk struct {
	Line   int      `json:"line"`
	Before []string `json:"before"`
	After  []string `json:"after"`
}

// change describes p, each note's hunks, properties, links and sections.
func (p *plan) change() *Change {
	c := &Change{Tool: p.tool}
	if p.dir[0] != "" {
		c.Folder = &FolderMove{From: p.dir[0], To: p.dir[1]}
	}
	for _, f := range p.files {
		sum := sha256.Sum256(f.after)
		nc := NoteChange{Path: f.path, NewPath: f.newPath, Created: f.before == nil, AfterSHA256: hex.EncodeToString(sum[:])}
		b, a := parse(f.path, f.beforeText), parse(f.path, f.afterText)
		nc.Properties = propertyChanges(f.beforeText, f.afterText)
		nc.SectionsAdded, nc.SectionsRemoved = headingDiff(b.Headings, a.Headings)
		nc.Hunks = hunks(f.beforeText, f.afterText)
		nc.Links = linkChanges(nc.Hunks)
		c.Notes = append(c.Notes, nc)
	}
	return c
}

// headingDiff lists the headings a has that b has not, and the reverse.
func headingDiff(b, a []Heading) (added, removed []string) {
	count := map[string]int{}
	for _, h := range b {
		count[h.Text]++
	}
	for _, h := range a {
		if count[h.Text] > 0 {
			count[h.Text]--
		} else {
			added = append(added, h.Text)
		}
	}
	for _, h := range b {
		if count[h.Text] > 0 {
			count[h.Text]--
			removed = append(removed, h.Text)
		}
	}
	return added, removed
}

// hunks are the lines that differ between two texts: each line apart when
// both have as many lines (a rename changes links within lines), else the
// one run between their common start and end.
func hunks(before, after string) []Hunk {
	if before == after {
		return nil
	}
	b, a := strings.Split(before, "\n"), strings.Split(after, "\n")
	if before == "" {
		b = nil
	}
	if len(a) == len(b) {
		var out []Hunk
		for i := range b {
			if b[i] != a[i] {
				out = append(out, Hunk{Line: i + 1, Before: []string{b[i]}, After: []string{a[i]}})
			}
		}
		return out
	}
	start := 0
	for start < len(b) && start < len(a) && b[start] == a[start] {
		start++
	}
	eb, ea := len(b), len(a)
	for eb > start && ea > start && b[eb-1] == a[ea-1] {
		eb--
		ea--
	}
	return []Hunk{{Line: start + 1, Before: nonNil(b[start:eb]), After: nonNil(a[start:ea])}}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// linkChanges pairs, hunk by hunk, the links that went with those that
// came: a rename's [[Old]] → [[New]] on the same line.
func linkChanges(hs []Hunk) []LinkChange {
	var out []LinkChange
	for _, h := range hs {
		gone, came := linksIn(h.Before), linksIn(h.After)
		for _, l := range gone {
			if i := indexOf(came, l); i >= 0 {
				came = append(came[:i], came[i+1:]...)
				gone = removeOne(gone, l)
			}
		}
		for i := range max(len(gone), len(came)) {
			lc := LinkChange{Line: h.Line}
			if i < len(gone) {
				lc.Before = gone[i]
			}
			if i < len(came) {
				lc.After = came[i]
			}
			out = append(out, lc)
		}
	}
	return out
}

// linksIn are the wikilinks and Markdown links to notes in lines, as
// written, outside code (a hunk that starts inside a code block is read
// as if it did not).
func linksIn(lines []string) []string {
	var out []string
	var fence codeFence
	for _, l := range lines {
		if fence.step(l) || fence.inside() {
			continue
		}
		l = inlineCode().ReplaceAllString(l, " ")
		out = append(out, wikilinkRE().FindAllString(l, -1)...)
		for _, m := range mdLinks(l) {
			out = append(out, l[m.start:m.end])
		}
	}
	return out
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

func removeOne(list []string, s string) []string {
	if i := indexOf(list, s); i >= 0 {
		return append(list[:i:i], list[i+1:]...)
	}
	return list
}

// editText plans the replacement of the note at p's text by what edit
// makes of it. edit gets and returns the text with its line endings as they
// are on disk (a note may end its lines both ways).
func (v *Vault) editText(tool, p string, edit func(raw string, crlf bool) (string, error)) (*plan, error) {
	if !isNote(p) {
		return nil, toolbox.Errorf("%s is not a Markdown note; %s only changes .md notes", p, tool)
	}
	before, err := v.root.ReadFile(p)
	if err != nil {
		return nil, toolError(p, err)
	}
	raw := decodeRaw(before)
	if raw.Encoding == Unknown {
		return nil, toolError(p, ErrUnknownEncoding)
	}
	if strings.ContainsRune(raw.Text, 0) {
		return nil, toolbox.Errorf("%s is a binary file, not a note; choose a Markdown note", p)
	}
	crlf := Decode(before).CRLF
	text, err := edit(raw.Text, crlf)
	if err != nil {
		return nil, err
	}
	raw.Text = text
	after, err := raw.Encode()
	if err != nil {
		return nil, toolError(p, err)
	}
	return &plan{tool: tool, files: []fileEdit{{
		path: p, before: before, after: after,
		beforeText: Decode(before).Text, afterText: Decode(after).Text,
	}}}, nil
}

// applyPlan writes p's notes, each atomically, after keeping each previous
// content with the run (as append_note does), and indexes them. It
// returns the change, with where each previous content is kept.
func (v *Vault) applyPlan(env toolbox.Env, p *plan) (*Change, error) {
	for _, f := range p.files {
		if f.before == nil {
			continue
		}
		now, err := v.root.ReadFile(f.path)
		if err != nil {
			return nil, toolError(f.path, err)
		}
		if !bytes.Equal(now, f.before) {
			return nil, toolbox.Errorf("%s changed while the edit was prepared (another program wrote it); read it again and redo the edit", f.path)
		}
	}
	c := p.change()
	for i, f := range p.files {
		if f.before != nil && env.Home != "" && env.RunID != "" {
			ref, err := runlog.SaveArtifact(env.Home, env.RunID, env.CallID+".before", f.before)
			if err != nil {
				return nil, fmt.Errorf("keep the previous content of %s: %w", f.path, err)
			}
			c.Notes[i].BeforeRef = ref
		}
	}
	// The notes are written several at a time: each write waits on the
	// disk twice (the file, then its folder), and a rename writes every
	// note that links to the note.
	var (
		touched []string
		errs    = make([]error, len(p.files))
		wg      sync.WaitGroup
		slots   = make(chan struct{}, 8)
	)
	for i, f := range p.files {
		if p.dir[0] != "" {
			f.newPath = "" // moved with its folder below
		}
		touched = append(touched, f.path)
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			errs[i] = v.writeEdit(f)
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			v.reindex(touched)
			return nil, err
		}
	}
	if p.dir[0] != "" {
		if err := v.moveDir(p.dir[0], p.dir[1]); err != nil {
			v.reindex(touched)
			return nil, err
		}
	}
	for _, f := range p.files {
		if f.newPath != "" {
			touched = append(touched, f.newPath)
		}
	}
	v.reindex(touched)
	if env.Home != "" && env.RunID != "" {
		if b, err := json.Marshal(c); err == nil {
			// The card's diff and Undo read it; a failure to keep it leaves
			// the edit done and its previous contents kept.
			_, _ = runlog.SaveArtifact(env.Home, env.RunID, env.CallID+".change.json", b)
		}
	}
	return c, nil
}

// writeEdit writes one note of a plan: in place (the note keeps its
// permissions), as a new note (never replacing one), or moved.
func (v *Vault) writeEdit(f fileEdit) error {
	switch {
	case f.before != nil && f.newPath == "" && bytes.Equal(f.before, f.after):
		return nil
	case f.before == nil:
		if dir := path.Dir(f.path); dir != "." {
			if err := v.root.MkdirAll(dir, 0o755); err != nil {
				return toolError(dir, err)
			}
		}
		err := atomicfile.WriteFileIn(v.root, f.path, f.after, 0o644, atomicfile.NoReplace())
		if errors.Is(err, fs.ErrExist) {
			return toolbox.Errorf("%s already exists and a note is never replaced; choose another name, or use append_note to add to it", f.path)
		}
		if err != nil {
			return toolError(f.path, err)
		}
		return nil
	case f.newPath != "":
		if !bytes.Equal(f.before, f.after) {
			if err := atomicfile.WriteFileIn(v.root, f.path, f.after, 0o644, atomicfile.KeepMode()); err != nil {
				return toolError(f.path, err)
			}
		}
		if dir := path.Dir(f.newPath); dir != "." {
			if err := v.root.MkdirAll(dir, 0o755); err != nil {
				return toolError(dir, err)
			}
		}
		if !strings.EqualFold(f.path, f.newPath) {
			if _, err := v.root.Lstat(f.newPath); err == nil {
				return toolbox.Errorf("%s already exists; a rename never replaces a note, so choose another name", f.newPath)
			}
		}
		if err := v.root.Rename(f.path, f.newPath); err != nil {
			return toolError(f.newPath, err)
		}
		return nil
	}
	if err := atomicfile.WriteFileIn(v.root, f.path, f.after, 0o644, atomicfile.KeepMode()); err != nil {
		return toolError(f.path, err)
	}
	return nil
}

// moveDir renames the folder from to to, making to's parent if missing.
func (v *Vault) moveDir(from, to string) error {
	if dir := path.Dir(to); dir != "." {
		if err := v.root.MkdirAll(dir, 0o755); err != nil {
			return toolError(dir, err)
		}
	}
	if _, err := v.root.Lstat(to); err == nil {
		return toolbox.Errorf("%s already exists; a folder is moved to a new path only, so choose another", to)
	}
	if err := v.root.Rename(from, to); err != nil {
		return toolError(to, err)
	}
	return nil
}

// summary is the lines of a tool's result that say what c changed.
func (c *Change) summary() string {
	var b strings.Builder
	for _, n := range c.Notes {
		name := n.Path
		if n.NewPath != "" {
			name = n.Path + " → " + n.NewPath
		}
		var parts []string
		for _, pc := range n.Properties {
			switch {
			case pc.Added:
				parts = append(parts, "property "+pc.Name+" added")
			case pc.Removed:
				parts = append(parts, "property "+pc.Name+" removed")
			default:
				parts = append(parts, "property "+pc.Name+" changed")
			}
		}
		if k := len(n.Links); k > 0 {
			parts = append(parts, plural(k, "link", "links")+" changed")
		}
		for _, s := range n.SectionsAdded {
			parts = append(parts, fmt.Sprintf("section %q added", s))
		}
		for _, s := range n.SectionsRemoved {
			parts = append(parts, fmt.Sprintf("section %q removed", s))
		}
		if len(parts) == 0 {
			lines := 0
			for _, h := range n.Hunks {
				lines += max(len(h.Before), len(h.After))
			}
			parts = append(parts, plural(lines, "line", "lines")+" changed")
		}
		fmt.Fprintf(&b, "\n- %s: %s", name, strings.Join(parts, ", "))
		if n.BeforeRef != "" {
			fmt.Fprintf(&b, " (previous content kept in %s)", n.BeforeRef)
		}
	}
	return b.String()
}
