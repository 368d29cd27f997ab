package vault

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"hermes/backend/atomicfile"
	"hermes/backend/search"
)

// storeVersion changes whenever Note or the way notes are indexed changes,
// so an index written by another version is rebuilt.
const storeVersion = 4

// notesFile is what the index knows of each note, saved beside the search
// index (see writeNotes).
const notesFile = "notes.bin"

// load reads the saved index; anything missing, corrupt, from another
// version or saved apart from the search index starts an empty one, which
// sync then fills. The notes stay as saved until something needs them all
// (see decodeAllLocked).
func (v *Vault) load() {
	v.notes, v.names, v.saved = map[string]*Note{}, newNameIndex(), nil
	v.idx = search.New(search.Options{FieldWeights: fieldWeights})
	var (
		wg     sync.WaitGroup
		idx    *search.Index
		idxErr error
	)
	wg.Go(func() { idx, idxErr = search.Open(v.indexDir, search.Options{FieldWeights: fieldWeights}) })
	b, err := os.ReadFile(filepath.Join(v.indexDir, notesFile))
	var saved *savedNotes
	if err == nil {
		saved, err = readNotes(b)
	}
	wg.Wait()
	if err != nil || idxErr != nil || saved.indexSum != idx.FileSum() || idx.Len() != saved.len() {
		return
	}
	v.idx, v.saved = idx, saved
}

// decodeAllLocked decodes every saved note, for a change or a tool that
// looks at every note; v.mu is held for writing. Once done, v.notes holds
// every note for the rest of the vault's life.
func (v *Vault) decodeAllLocked() {
	if v.saved == nil {
		return
	}
	v.notes, v.names = make(map[string]*Note, v.saved.len()), newNameIndexSized(v.saved.len())
	v.gen++
	for i := range v.saved.paths {
		n := v.saved.note(i)
		v.notes[n.Path] = n
		v.names.add(n)
	}
	v.saved = nil
}

// rlockAll read-locks v with every note decoded.
func (v *Vault) rlockAll() {
	v.mu.RLock()
	if v.saved == nil {
		return
	}
	v.mu.RUnlock()
	v.mu.Lock()
	v.decodeAllLocked()
	v.mu.Unlock()
	v.mu.RLock() // saved never comes back
}

// save writes the index if it changed since it was read or saved. The
// search index goes first: notes.bin names only what it holds, and load
// checks that they agree.
func (v *Vault) save() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if !v.dirty {
		return nil
	}
	if err := v.idx.Save(v.indexDir); err != nil {
		return err
	}
	err := atomicfile.Write(filepath.Join(v.indexDir, notesFile), 0o600, func(w io.Writer) error {
		return writeNotes(w, v.dir, v.idx.FileSum(), v.notes)
	})
	if err != nil {
		return fmt.Errorf("save vault index: %w", err)
	}
	_ = os.Remove(filepath.Join(v.indexDir, "notes.gob")) // the previous version's
	v.dirty = false
	return nil
}
