package vault

import (
	"bytes"
	"encoding/gob"
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
const storeVersion = 1

const notesFile = "notes.gob"

// stored is notes.gob, saved beside the search index.
type stored struct {
	Version int
	Vault   string // for a person looking into HOME/index
	Notes   []*Note
}

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
	var s stored
	if err == nil {
		err = gob.NewDecoder(bytes.NewReader(b)).Decode(&s)
	}
	wg.Wait()
	if err != nil || s.Version != storeVersion || idxErr != nil || idx.Len() != len(s.Notes) {
		return
	}
	for _, n := range s.Notes {
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
// search index goes first: notes.gob names only what it holds, and load
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
	s := stored{Version: storeVersion, Vault: v.dir, Notes: make([]*Note, 0, len(v.notes))}
	for _, n := range v.notes {
		s.Notes = append(s.Notes, n)
	}
	err := atomicfile.Write(filepath.Join(v.indexDir, notesFile), 0o600, func(w io.Writer) error {
		return gob.NewEncoder(w).Encode(s)
	})
	if err != nil {
		return fmt.Errorf("save vault index: %w", err)
	}
	v.dirty = false
	return nil
}
