// Package store is hermes.db, Hermes's bbolt store: checkpoints, run summaries,
// approval rules, bot sessions and caches, each in buckets of its own; long-term memory
// (backend/longterm) keeps its buckets here too, through Register, View and Update.
package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"hermes/backend/i18n"
)

// lockTimeout is how long Open waits for another process to let go of the
// file before it gives up with ErrLocked.
var lockTimeout = time.Second

// Store is the database in the home directory. It is safe for concurrent use.
type Store struct {
	db   *bolt.DB
	path string
	w    *writer
	// durable, when set, hears of each run whose queued checkpoint is now
	// durable (OnCheckpoint).
	durable atomic.Pointer[func(runID string)]
}

// Open opens or creates the database at path. When another process holds it,
// the error is ErrLocked, telling the user what to do.
//
// Every commit is synced: the file holds what a user cannot redo (approval
// rules, long-term memory, the bot's state), and bbolt without fsync can be
// left corrupt, not merely behind, by a power cut or kernel crash. The loop's
// checkpoints, one an iteration, are queued instead (QueueCheckpoint), so the
// fsync (0.5 ms on a quiet disk, up to 26 ms on a busy one) is never on its
// path.
func Open(path string) (*Store, error) {
	return openWithin(path, lockTimeout)
}

// OpenWithin is Open that waits at most wait for another process to let go
// of the file: a reader with another way to its answer (hermes runs) does
// not wait long for an owner that may hold the file for hours.
func OpenWithin(path string, wait time.Duration) (*Store, error) {
	return openWithin(path, wait)
}

func openWithin(path string, wait time.Duration) (*Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("open memory %s: %w", path, err)
	}
	db, err := openBolt(path, &bolt.Options{
		Timeout:      wait,
		FreelistType: bolt.FreelistMapType,
	}, true)
	if err != nil {
		return nil, err
	}
	s := &Store{db: db, path: path}
	if err := s.init(); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("open memory %s: %w", path, err)
	}
	s.startWriter()
	return s, nil
}

// Snapshot writes a copy of the store at src to dst, read in one
// transaction under the store's lock, so no writer changes it half-way
// through as it could a plain copy of the file. The error is ErrLocked
// while another process holds src, ErrDamaged when src is damaged.
func Snapshot(src, dst string) error {
	db, err := openBolt(src, &bolt.Options{Timeout: lockTimeout, ReadOnly: true}, true)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := db.View(func(tx *bolt.Tx) error { return tx.CopyFile(dst, 0o600) }); err != nil {
		return fmt.Errorf("copy memory %s to %s: %w", src, dst, err)
	}
	return nil
}

// openBolt opens the file with bbolt and checks what can be checked
// cheaply, before anything writes to it: the meta pages, the freelist (if
// opts load it), and, if whole, that the file holds every page the meta
// page counts. bbolt panics or faults on a damaged file (a freelist page of
// the wrong type, a page past the end of a file cut short); both come back
// as ErrDamaged, with the file untouched.
func openBolt(path string, opts *bolt.Options, whole bool) (db *bolt.DB, err error) {
	var file *os.File
	opts.OpenFile = func(name string, flag int, perm os.FileMode) (*os.File, error) {
		f, err := os.OpenFile(name, flag, perm)
		if file == nil {
			file = f // the database's own file, not a copy's
		}
		return f, err
	}
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if db != nil {
				_ = db.Close()
			} else if file != nil {
				// bbolt lost its handle with the file locked and mapped;
				// the lock is let go so this process can open the file
				// again (hermes doctor does).
				unlockFile(file)
				_ = file.Close()
			}
			db, err = nil, damaged(path, fmt.Sprint(r))
		}
	}()
	db, err = bolt.Open(path, 0o600, opts)
	var pathErr *fs.PathError
	switch {
	case errors.Is(err, bolterrors.ErrTimeout):
		return nil, i18n.Wrap(ErrLocked, "memory.locked", path)
	case errors.As(err, &pathErr):
		return nil, fmt.Errorf("open memory %s: %w", path, err)
	case err != nil:
		return nil, damaged(path, err.Error()) // not a bbolt file, or its meta pages are bad
	}
	if !whole {
		return db, nil
	}
	err = db.View(func(tx *bolt.Tx) error {
		st, err := os.Stat(path)
		if err != nil {
			return fmt.Errorf("open memory %s: %w", path, err)
		}
		if st.Size() < tx.Size() {
			return damaged(path, fmt.Sprintf("the file has %d bytes, its pages need %d", st.Size(), tx.Size()))
		}
		return nil
	})
	if err != nil {
		_ = db.Close()
		return nil, err
	}
	return db, nil
}

// damageError is ErrDamaged for the file at path; why is bbolt's account
// of the damage. damaged wraps it in its message, so the API can say it in
// either language.
type damageError struct{ path, why string }

func damaged(path, why string) error {
	return i18n.Wrap(&damageError{path, why}, "memory.damaged", path, why)
}

func (e *damageError) Error() string { return e.why }
func (e *damageError) Unwrap() error { return ErrDamaged }

// init creates the buckets this version uses, so readers never meet a
// missing one.
func (s *Store) init() error {
	// Most opens find every bucket: a read, not a synced commit, so a
	// short-lived reader (hermes runs) does not wait on the disk.
	whole := true
	if err := s.view(func(tx *bolt.Tx) error {
		for _, name := range buckets {
			whole = whole && tx.Bucket(name) != nil
		}
		return nil
	}); err != nil || whole {
		return err
	}
	return s.update(func(tx *bolt.Tx) error {
		for _, name := range buckets {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return fmt.Errorf("create bucket %s: %w", name, err)
			}
		}
		return nil
	})
}

// view and update are db.View and db.Update on a store that may be damaged
// past what Open checks cheaply: bbolt panics or faults on a page it cannot
// read (it rolls the transaction back first), and that comes back as
// ErrDamaged, saying to run hermes doctor, instead of ending the process.
func (s *Store) view(fn func(*bolt.Tx) error) error {
	return s.guard(func() error { return s.db.View(fn) })
}

func (s *Store) update(fn func(*bolt.Tx) error) error {
	return s.guard(func() error { return s.db.Update(fn) })
}

func (s *Store) guard(op func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = damaged(s.path, fmt.Sprint(r))
		}
	}()
	return op()
}

// Close commits the checkpoints still queued and closes the database,
// releasing it for other processes.
func (s *Store) Close() error {
	s.stopWriter()
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("close memory %s: %w", s.path, err)
	}
	return nil
}

// Path is the database file.
func (s *Store) Path() string { return s.path }
