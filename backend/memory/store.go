// Package memory is Hermes's bbolt store: checkpoints now, and later
// long-term memory, bot sessions and caches, each in buckets of its own.
package memory

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
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
}

// Open opens or creates the database at path. When another process holds it,
// the error is ErrLocked, telling the user what to do.
//
// Commits are not fsynced (NoSync). The loop saves a checkpoint every
// iteration and the checkpoint must survive the process being killed, which it
// does without fsync: the written pages are in the page cache, which outlives
// the process. Only a power loss or kernel crash needs fsync, and Close syncs
// once so a clean exit is durable. BenchmarkSaveCheckpoint (2 new turns on a
// run of 1,000 turns, 1,000 saves) on the development machine, 2 cores, ext4,
// other builds running: with fsync 0.46 ms per save when the disk was quiet
// and 4 to 26 ms when it was busy, against the loop's whole budget of 2 ms per
// iteration; with NoSync 0.04 to 0.07 ms, and never above 0.4 ms.
func Open(path string) (*Store, error) {
	return open(path, true)
}

func open(path string, noSync bool) (*Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("open memory %s: %w", path, err)
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{
		Timeout:      lockTimeout,
		NoSync:       noSync,
		FreelistType: bolt.FreelistMapType,
	})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, i18n.Wrap(ErrLocked, "memory.locked", path)
	}
	if err != nil {
		return nil, fmt.Errorf("open memory %s: %w", path, err)
	}
	s := &Store{db: db, path: path}
	if err := s.init(); err != nil {
		db.Close()
		return nil, fmt.Errorf("open memory %s: %w", path, err)
	}
	return s, nil
}

// init creates the buckets this version uses, so readers never meet a
// missing one.
func (s *Store) init() error {
	return s.db.Update(func(tx *bolt.Tx) error {
		for _, name := range buckets {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return fmt.Errorf("create bucket %s: %w", name, err)
			}
		}
		return nil
	})
}

// Close syncs and closes the database, releasing it for other processes.
func (s *Store) Close() error {
	if err := errors.Join(s.db.Sync(), s.db.Close()); err != nil {
		return fmt.Errorf("close memory %s: %w", s.path, err)
	}
	return nil
}

// Path is the database file.
func (s *Store) Path() string { return s.path }
