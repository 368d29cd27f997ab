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
const storeVersion = 2

// notesFile is what the index knows of each note, saved beside the search
// index (see writeNotes).
const notesFile = "notes.bin"

// load reads the saved index; anything missing, corrupt, from another
// version or out of step with the search index starts an empty one, which
// sync then fills.
func (v *Vault) load() {
	v.notes, v.names = map[string]*Note{}, newNameIndex()
	v.idx = search.New(search.Options{FieldWeights: fieldWeights})
	var (
		wg     sync.WaitGroup
		idx    *search.Index
		idxErr error
	)
	wg.Go(func() { idx, idxErr = search.Open(v.indexDir, search.Options{FieldWeights: fieldWeights}) })
	b, err := os.ReadFile(filepath.Join(v.indexDir, notesFile))
	var notes []*Note
	if err == nil {
		notes, err = readNotes(b)
	}
	wg.Wait()
	if err != nil || idxErr != nil || idx.Len() != len(notes) {
		return
	}
	v.notes, v.names = make(map[string]*Note, len(notes)), newNameIndexSized(len(notes))
	for _, n := range notes {
		if n == nil || !idx.Has(n.Path) {
			v.notes, v.names = map[string]*Note{}, newNameIndex()
			return
		}
		v.notes[n.Path] = n
		v.names.add(n)
	}
	v.idx = idx
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
		return writeNotes(w, v.dir, v.notes)
	})
	if err != nil {
		return fmt.Errorf("save vault index: %w", err)
	}
	_ = os.Remove(filepath.Join(v.indexDir, "notes.gob")) // the previous version's
	v.dirty = false
	return nil
}
