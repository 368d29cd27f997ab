// Package vault gives an agent an Obsidian vault: notes found by full-text
// search (Chinese included) from an index kept on disk and current while
// Hermes runs, read by path or wikilink, listed, linked and tagged, and
// appended to or created in the encoding and line endings they already
// use. Every path is confined to the vault by os.Root, Obsidian's own
// folders (.obsidian, .trash) are never read in any spelling, and only
// Markdown notes are ever written.
package vault

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"hermes/backend/i18n"
	"hermes/backend/search"
)

// Options configure Open.
type Options struct {
	// Home is the Hermes home directory; the index lives in Home/index/.
	Home string
	// Exclude are more folder or file names never read, as path.Match
	// patterns ("Archive", "*.excalidraw.md") matched without regard to
	// case.
	Exclude []string
	// Watch keeps the index current while the vault is open.
	Watch bool
}

// Vault is an open Obsidian vault. It is safe for concurrent use.
type Vault struct {
	dir      string // absolute
	root     *os.Root
	exclude  []string
	indexDir string

	mu sync.RWMutex
	// saved is the notes as read from disk, decoded one at a time until
	// a change or a tool that needs them all decodes them into notes and
	// names (see decodeAllLocked); nil after that, or when there were none.
	saved *savedNotes
	notes map[string]*Note
	names nameIndex
	idx   *search.Index
	dirty bool // the index changed since it was saved

	watch *watcher
	subs  subscribers

	// gen counts the changes to notes, so that what is made from them all
	// (listed) is made again after one.
	gen    int
	listed listing

	// now is the clock of daily notes and templates; tests set it.
	now func() time.Time
}

// fieldWeights rank a match in a note's name or aliases above one in its
// body.
var fieldWeights = map[string]int{"title": 4, "tags": 2, "body": 1}

// Open opens the vault in dir and brings its index up to date: it is read
// from disk, rebuilt if missing or corrupt, and notes changed since it was
// saved are indexed again.
func Open(dir string, opts Options) (*Vault, error) {
	abs, exclude, err := check(dir, opts)
	if err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		return nil, i18n.Wrap(fmt.Errorf("open vault %s: %w", abs, err), "vault.not_found", abs)
	}
	sum := sha256.Sum256([]byte(abs))
	v := &Vault{
		dir: abs, root: root, exclude: exclude,
		indexDir: filepath.Join(opts.Home, "index", hex.EncodeToString(sum[:8])),
		now:      time.Now,
	}
	// Listing the notes and reading the saved index overlap: each takes
	// about as long as the other.
	var (
		wg      sync.WaitGroup
		onDisk  map[string]stamp
		scanErr error
	)
	wg.Go(func() { onDisk, scanErr = v.scan() })
	v.load()
	wg.Wait()
	if scanErr != nil {
		_ = root.Close()
		return nil, scanErr
	}
	v.sync(onDisk)
	if err := v.save(); err != nil {
		_ = root.Close()
		return nil, err
	}
	if opts.Watch {
		if err := v.startWatching(); err != nil {
			_ = root.Close()
			return nil, err
		}
	}
	return v, nil
}

// check resolves dir, checks it is a folder, and folds the exclude
// patterns after checking them.
func check(dir string, opts Options) (string, []string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", nil, fmt.Errorf("open vault %s: %w", dir, err)
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return "", nil, i18n.Wrap(fmt.Errorf("open vault %s: %w", abs, ErrNoVault), "vault.not_found", abs)
	}
	exclude := make([]string, len(opts.Exclude))
	for i, p := range opts.Exclude {
		if _, err := path.Match(p, ""); err != nil {
			return "", nil, i18n.Wrap(fmt.Errorf("exclude pattern %q: %w", p, err), "vault.bad_exclude", p)
		}
		exclude[i] = fold(p)
	}
	return abs, exclude, nil
}

// IndexDir is where the vault's index is kept.
func (v *Vault) IndexDir() string { return v.indexDir }

// Close stops watching and saves the index if it changed.
func (v *Vault) Close() error {
	var err error
	if v.watch != nil {
		err = v.watch.stop()
	}
	return errors.Join(err, v.save(), v.root.Close())
}

// Note returns what the index knows of the note at a slash path.
func (v *Vault) Note(p string) (*Note, bool) {
	v.mu.RLock()
	defer v.mu.RUnlock()
	if v.saved != nil {
		return v.saved.lookup(p)
	}
	n, ok := v.notes[p]
	return n, ok
}

// Len is the number of notes.
func (v *Vault) Len() int {
	v.mu.RLock()
	defer v.mu.RUnlock()
	if v.saved != nil {
		return v.saved.len()
	}
	return len(v.notes)
}

// stamp is what tells that a note changed: its size and modification time.
type stamp struct{ size, modTime int64 }

// scan lists the notes in the vault with their stamps. The rule that keeps
// the index true to notes changed while no Hermes ran: every folder is
// read once and every note's stamp is compared with the index's, an lstat
// relative to the open folder (not a walk of its path through os.Root), so
// that an edit in place, which leaves its folder's time as it was, is seen
// too. Folders are read several at a time.
func (v *Vault) scan() (map[string]stamp, error) {
	type found struct {
		path string
		stamp
	}
	var (
		wg    sync.WaitGroup
		slots = make(chan struct{}, runtime.GOMAXPROCS(0))
		mu    sync.Mutex
		lists [][]found
		total int
		read  func(dir string) error
	)
	read = func(dir string) error {
		slots <- struct{}{}
		entries, err := v.listDir(dir)
		<-slots
		if err != nil {
			return err
		}
		var notes []found
		for _, e := range entries {
			p := e.name // a name from a listing: no slash, never "." or ".."
			if dir != "." {
				p = dir + "/" + e.name
			}
			switch e.kind {
			case entryDir:
				wg.Go(func() { _ = read(p) }) // an unreadable folder is skipped, not fatal
			case entryNote:
				notes = append(notes, found{p, e.stamp})
			case entryLink:
				// Followed through the root, which refuses a link that leads
				// out.
				if fi, err := v.root.Stat(p); err == nil && fi.Mode().IsRegular() {
					notes = append(notes, found{p, stamp{fi.Size(), fi.ModTime().UnixNano()}})
				}
			}
		}
		mu.Lock()
		lists, total = append(lists, notes), total+len(notes)
		mu.Unlock()
		return nil
	}
	err := read(".")
	wg.Wait()
	if err != nil {
		return nil, fmt.Errorf("scan vault %s: %w", v.dir, err)
	}
	out := make(map[string]stamp, total)
	for _, notes := range lists {
		for _, n := range notes {
			out[n.path] = n.stamp
		}
	}
	return out, nil
}

// dirEntry is what listDir keeps of a folder's entry: a folder to read, a
// note with its stamp, or a symbolic link named as a note.
type dirEntry struct {
	name  string
	kind  int
	stamp stamp // of a note
}

const (
	entryDir = iota
	entryNote
	entryLink
)

// sync indexes every note of onDisk that is new or changed since the index
// saw it, and forgets notes that are gone.
func (v *Vault) sync(onDisk map[string]stamp) {
	var stale []string
	v.mu.Lock()
	if v.saved != nil && v.saved.unchanged(onDisk) {
		v.mu.Unlock()
		return
	}
	v.decodeAllLocked()
	for p := range v.notes {
		if _, ok := onDisk[p]; !ok {
			v.forgetLocked(p)
		}
	}
	for p, st := range onDisk {
		if n := v.notes[p]; n == nil || n.ModTime != st.modTime || n.Size != st.size {
			stale = append(stale, p)
		}
	}
	v.mu.Unlock()
	v.reindex(stale)
}

// reindex reads and indexes the notes at paths, several at a time; a path
// that no longer holds a note is forgotten. It returns the paths whose
// index entry changed.
func (v *Vault) reindex(paths []string) []string {
	var (
		wg      sync.WaitGroup
		next    = make(chan string)
		mu      sync.Mutex
		changed []string
	)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for p := range next {
				if v.indexNote(p) {
					mu.Lock()
					changed = append(changed, p)
					mu.Unlock()
				}
			}
		})
	}
	for _, p := range paths {
		next <- p
	}
	close(next)
	wg.Wait()
	return changed
}

// indexNote reads one note into the index, or forgets it when it is gone,
// and reports whether anything changed.
func (v *Vault) indexNote(p string) bool {
	fi, err := v.root.Stat(p)
	if err != nil || !fi.Mode().IsRegular() {
		v.mu.Lock()
		defer v.mu.Unlock()
		return v.forgetLocked(p)
	}
	b, err := v.root.ReadFile(p)
	if err != nil {
		return false
	}
	t := Decode(b)
	n := parse(p, t.Text)
	n.Encoding, n.CRLF = t.Encoding, t.CRLF
	n.ModTime, n.Size = fi.ModTime().UnixNano(), fi.Size()
	v.idx.Put(document(n, t.Text))
	v.mu.Lock()
	defer v.mu.Unlock()
	v.decodeAllLocked()
	if old := v.notes[p]; old != nil {
		v.names.remove(old)
	}
	v.notes[p] = n
	v.gen++
	v.names.add(n)
	v.dirty = true
	return true
}

// forgetLocked drops the note at p; v.mu is held.
func (v *Vault) forgetLocked(p string) bool {
	v.decodeAllLocked()
	n, ok := v.notes[p]
	if !ok {
		return false
	}
	v.names.remove(n)
	delete(v.notes, p)
	v.gen++
	v.idx.Delete(p)
	v.dirty = true
	return true
}

// document is what the search index holds of a note.
func document(n *Note, text string) search.Document {
	title := append([]string{n.Name()}, n.Aliases...)
	title = append(title, property(n.Front, "title")...)
	kw := map[string][]string{}
	for _, t := range n.Tags {
		// A nested tag a/b/c is also found under a and a/b.
		parts := strings.Split(strings.ToLower(t), "/")
		for i := range parts {
			kw["tag"] = appendUnique(kw["tag"], strings.Join(parts[:i+1], "/"))
		}
	}
	for dir := path.Dir(n.Path); dir != "."; dir = path.Dir(dir) {
		kw["folder"] = append(kw["folder"], strings.ToLower(dir))
	}
	for k, vs := range n.Front {
		for _, val := range vs {
			kw["prop:"+strings.ToLower(k)] = append(kw["prop:"+strings.ToLower(k)], strings.ToLower(val))
		}
	}
	return search.Document{
		ID:       n.Path,
		Fields:   map[string]string{"title": strings.Join(title, " "), "tags": strings.Join(n.Tags, " "), "body": text},
		Keywords: kw,
	}
}
