package longterm

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"hermes/backend/store"
)

// The namespace index: what a recall in one namespace reads, so that it
// costs that namespace's entries and not the store's (a bot replica with
// shared memory holds every chat user's). It mirrors the buckets every
// Hermes version reads and writes, which stay as they were; it is rebuilt
// from them when they changed without it (an older Hermes wrote them, or
// hermes doctor --salvage, which does not copy it, made a new store).
var (
	// memSpacesBucket holds, under a namespace's prefix (spacePrefix):
	// 'p' id for a pinned entry, 'f' id for a preference, and 't' term 0x00
	// id for a posting, valued as in memTermsBucket.
	memSpacesBucket = []byte("memory.spaces.v1")
	// memDFBucket maps a term to how many postings memTermsBucket holds for
	// it (big-endian uint64), for BM25's idf; stampKey holds indexStamp as
	// of the index's last write.
	memDFBucket = []byte("memory.df.v1")
)

func init() { store.RegisterDerived(memSpacesBucket, memDFBucket) }

// stampKey is no term: terms never start with 0x00.
var stampKey = []byte("\x00stamp")

// Classes of keys under a namespace's prefix.
const (
	classPinned  = 'p'
	classPref    = 'f'
	classPosting = 't'
)

// spacePrefix is the namespace's length (two big-endian bytes), then it and
// the class: a namespace never prefixes another's keys.
func spacePrefix(namespace string, class byte) []byte {
	k := binary.BigEndian.AppendUint16(nil, uint16(len(namespace)))
	return append(append(k, namespace...), class)
}

func spaceIDKey(namespace string, class byte, id uint64) []byte {
	return binary.BigEndian.AppendUint64(spacePrefix(namespace, class), id)
}

func spacePostingKey(namespace, term string, id uint64) []byte {
	return append(spacePrefix(namespace, classPosting), postingKey(term, id)...)
}

// indexStamp is what of the mirrored buckets an older Hermes changes when it
// writes: the entries' id sequence and stats (Remember, Forget, Fade) and
// the pinned ids (Pin; few, and only their keys are read).
func indexStamp(tx *bolt.Tx) []byte {
	st := tx.Bucket(memStatsBucket).Get(statsKey)
	k := binary.BigEndian.AppendUint64(nil, tx.Bucket(memEntriesBucket).Sequence())
	k = append(k, st...)
	var n, sum uint64
	c := tx.Bucket(memPinnedBucket).Cursor()
	for id, _ := c.First(); id != nil; id, _ = c.Next() {
		n++
		sum += mix(binary.BigEndian.Uint64(id))
	}
	return binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(k, n), sum)
}

// mix is splitmix64's finaliser: sums of mixed ids tell sets apart.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

func indexFresh(tx *bolt.Tx) bool {
	return bytes.Equal(tx.Bucket(memDFBucket).Get(stampKey), indexStamp(tx))
}

// update runs fn in a write transaction on an index that is fresh before
// fn, and stamped fresh after it.
func (m *Memory) update(fn func(tx *bolt.Tx) error) error {
	return m.s.Update(func(tx *bolt.Tx) error {
		if !indexFresh(tx) {
			if err := rebuildIndex(tx); err != nil {
				return err
			}
		}
		if err := fn(tx); err != nil {
			return err
		}
		return tx.Bucket(memDFBucket).Put(stampKey, indexStamp(tx))
	})
}

// view runs fn in a read transaction on a fresh index, rebuilding it first
// when it is not.
func (m *Memory) view(fn func(tx *bolt.Tx) error) error {
	stale := false
	err := m.s.View(func(tx *bolt.Tx) error {
		if stale = !indexFresh(tx); stale {
			return nil
		}
		return fn(tx)
	})
	if err != nil || !stale {
		return err
	}
	if err := m.update(func(*bolt.Tx) error { return nil }); err != nil {
		return err
	}
	return m.s.View(fn)
}

// rebuildIndex writes the namespace index anew from the mirrored buckets:
// the pinned, the preferences and the postings whose entries it can read.
func rebuildIndex(tx *bolt.Tx) error {
	for _, name := range [][]byte{memSpacesBucket, memDFBucket} {
		if err := tx.DeleteBucket(name); err != nil && !errors.Is(err, bolterrors.ErrBucketNotFound) {
			return err
		}
		if _, err := tx.CreateBucket(name); err != nil {
			return err
		}
	}
	spaces, dfs := tx.Bucket(memSpacesBucket), tx.Bucket(memDFBucket)
	namespaces := map[uint64]string{}
	err := tx.Bucket(memEntriesBucket).ForEach(func(k, v []byte) error {
		var e Entry
		if len(k) == 8 && json.Unmarshal(v, &e) == nil {
			namespaces[binary.BigEndian.Uint64(k)] = e.Namespace
		}
		return nil // an entry that cannot be read is not recalled
	})
	if err != nil {
		return err
	}
	for _, class := range []struct {
		bucket []byte
		class  byte
	}{{memPinnedBucket, classPinned}, {memPrefsBucket, classPref}} {
		err := tx.Bucket(class.bucket).ForEach(func(k, _ []byte) error {
			if len(k) != 8 {
				return nil
			}
			id := binary.BigEndian.Uint64(k)
			if ns, ok := namespaces[id]; ok {
				return spaces.Put(spaceIDKey(ns, class.class, id), nil)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	var term []byte
	var df uint64
	putDF := func() error {
		if df == 0 {
			return nil
		}
		return dfs.Put(term, binary.BigEndian.AppendUint64(nil, df))
	}
	c := tx.Bucket(memTermsBucket).Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if len(k) < 10 || k[len(k)-9] != 0 || len(v) != 4 {
			continue
		}
		t, id := k[:len(k)-9], binary.BigEndian.Uint64(k[len(k)-8:])
		if !bytes.Equal(t, term) {
			if err := putDF(); err != nil {
				return err
			}
			term, df = bytes.Clone(t), 0
		}
		df++
		if ns, ok := namespaces[id]; ok {
			if err := spaces.Put(spacePostingKey(ns, string(t), id), v); err != nil {
				return err
			}
		}
	}
	return putDF()
}

// addDF adds delta to the term's posting count.
func addDF(tx *bolt.Tx, term string, delta int) error {
	b := tx.Bucket(memDFBucket)
	var df uint64
	if v := b.Get([]byte(term)); len(v) == 8 {
		df = binary.BigEndian.Uint64(v)
	}
	if delta < 0 && df <= uint64(-delta) {
		return b.Delete([]byte(term))
	}
	return b.Put([]byte(term), binary.BigEndian.AppendUint64(nil, uint64(int64(df)+int64(delta))))
}

// termDF is how many entries hold term.
func termDF(tx *bolt.Tx, term string) uint64 {
	if v := tx.Bucket(memDFBucket).Get([]byte(term)); len(v) == 8 {
		return binary.BigEndian.Uint64(v)
	}
	return 0
}
