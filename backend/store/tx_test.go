package store

import (
	"errors"
	"path/filepath"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// siblingBucket stands for the buckets of a package built on the store, as
// long-term memory's are.
var siblingBucket = []byte("test.sibling.v1")

func init() { Register(siblingBucket) }

// A registered bucket is there from Open on, and a sibling's Update commits
// what it wrote, or nothing when it fails, and the write survives a reopen.
func TestUpdate_SiblingBucket(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hermes.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	put := func(key string) func(*bolt.Tx) error {
		return func(tx *bolt.Tx) error { return tx.Bucket(siblingBucket).Put([]byte(key), []byte("v")) }
	}
	if err := s.Update(put("kept")); err != nil {
		t.Fatalf("Update into a registered bucket: %v", err)
	}
	refused := errors.New("refused")
	err = s.Update(func(tx *bolt.Tx) error {
		if err := put("dropped")(tx); err != nil {
			return err
		}
		return refused
	})
	if !errors.Is(err, refused) {
		t.Fatalf("Update = %v, want the function's error", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if s, err = Open(path); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	err = s.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(siblingBucket)
		if b.Get([]byte("kept")) == nil || b.Get([]byte("dropped")) != nil {
			t.Errorf("after reopen: kept %q, dropped %q; want the committed write only", b.Get([]byte("kept")), b.Get([]byte("dropped")))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
