package vault

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// settle is how long the watcher waits after a file event for the burst it
// belongs to (an editor's save: write a temporary file, rename it over the
// note) to end.
const settle = 100 * time.Millisecond

type watcher struct {
	fsw  *fsnotify.Watcher
	done chan struct{}
	wg   sync.WaitGroup
}

// startWatching watches every folder of the vault (fsnotify does not
// recurse), so that a note changed, created, renamed or deleted while the
// vault is open is indexed again within about a second.
func (v *Vault) startWatching() error {
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watch vault %s: %w", v.dir, err)
	}
	w := &watcher{fsw: fsw, done: make(chan struct{})}
	if err := v.watchTree(fsw, ""); err != nil {
		_ = fsw.Close()
		return err
	}
	v.watch = w
	w.wg.Go(func() { v.watchLoop(w) })
	return nil
}

func (w *watcher) stop() error {
	close(w.done)
	err := w.fsw.Close()
	w.wg.Wait()
	return err
}

// watchTree adds a watch on the folder at slash path dir and every folder
// below it that is read.
func (v *Vault) watchTree(fsw *fsnotify.Watcher, dir string) error {
	start := dir
	if start == "" {
		start = "."
	}
	return fs.WalkDir(v.root.FS(), start, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil // gone or unreadable: nothing to watch
		case !d.IsDir():
			return nil
		case p != "." && v.excluded(d.Name()):
			return fs.SkipDir
		}
		if err := fsw.Add(filepath.Join(v.dir, filepath.FromSlash(p))); err != nil && p == start {
			return fmt.Errorf("watch %s: %w", p, err)
		}
		return nil
	})
}

func (v *Vault) watchLoop(w *watcher) {
	pending := map[string]bool{}
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		select {
		case <-w.done:
			return
		case e, ok := <-w.fsw.Events:
			if !ok {
				return
			}
			rel, err := filepath.Rel(v.dir, e.Name)
			if err != nil || !filepath.IsLocal(rel) {
				continue
			}
			rel = filepath.ToSlash(rel)
			if v.hidden(rel) {
				continue
			}
			pending[rel] = true
			timer.Reset(settle)
		case _, ok := <-w.fsw.Errors:
			if !ok {
				return
			}
			// The kernel dropped events (a queue overflow): look at
			// everything again.
			pending[""] = true
			timer.Reset(settle)
		case <-timer.C:
			changed := v.apply(w.fsw, pending)
			clear(pending)
			if len(changed) > 0 {
				v.subs.notify(changed)
			}
		}
	}
}

// hidden reports whether a slash path lies in a folder never read.
func (v *Vault) hidden(rel string) bool {
	for _, part := range strings.Split(rel, "/") {
		if v.excluded(part) {
			return true
		}
	}
	return false
}

// apply indexes what changed at the paths events named: notes again,
// folders (new, renamed or gone) by what they hold now.
func (v *Vault) apply(fsw *fsnotify.Watcher, pending map[string]bool) []string {
	var notes []string
	for p := range pending {
		fi, err := v.root.Stat(orDot(p))
		switch {
		case err == nil && fi.IsDir():
			_ = v.watchTree(fsw, p) // a new folder, or one moved in
			notes = append(notes, v.notesUnder(p, true)...)
		case err == nil && isNote(p):
			notes = append(notes, p)
		case errors.Is(err, fs.ErrNotExist):
			// A note or a whole folder gone (or renamed away).
			notes = append(notes, v.notesUnder(p, false)...)
		}
	}
	return v.reindex(notes)
}

// notesUnder lists the notes at or below slash path p: those on disk when
// onDisk, else those the index holds.
func (v *Vault) notesUnder(p string, onDisk bool) []string {
	var out []string
	if onDisk {
		_ = fs.WalkDir(v.root.FS(), orDot(p), func(q string, d fs.DirEntry, err error) error {
			switch {
			case err != nil:
				return nil
			case q != orDot(p) && v.excluded(d.Name()) && d.IsDir():
				return fs.SkipDir
			case !d.IsDir() && isNote(d.Name()) && !v.excluded(d.Name()):
				out = append(out, q)
			}
			return nil
		})
		if p != "" {
			return out
		}
	}
	v.rlockAll()
	defer v.mu.RUnlock()
	for q := range v.notes {
		if p == "" || q == p || strings.HasPrefix(q, p+"/") {
			out = append(out, q)
		}
	}
	return out
}

func orDot(p string) string {
	if p == "" {
		return "."
	}
	return p
}

// subscribers receive the paths of notes indexed again.
type subscribers struct {
	mu   sync.Mutex
	subs map[chan []string]bool
}

// Subscribe returns a channel that receives the paths of the notes indexed
// again after each change the watcher saw (deleted notes included), and a
// function that ends the subscription. A subscriber that falls behind by
// more than 16 batches misses the later ones.
func (v *Vault) Subscribe() (<-chan []string, func()) {
	c := make(chan []string, 16)
	v.subs.mu.Lock()
	if v.subs.subs == nil {
		v.subs.subs = map[chan []string]bool{}
	}
	v.subs.subs[c] = true
	v.subs.mu.Unlock()
	return c, func() {
		v.subs.mu.Lock()
		delete(v.subs.subs, c)
		v.subs.mu.Unlock()
	}
}

func (s *subscribers) notify(paths []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.subs {
		select {
		case c <- paths:
		default:
		}
	}
}
