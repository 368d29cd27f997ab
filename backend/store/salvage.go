package store

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"hermes/backend/atomicfile"
)

// Report says what a walk of a store read, or saved, and the damage it met.
type Report struct {
	Buckets int      // buckets read, nested ones included
	Keys    int      // keys read (Verify) or saved (Salvage)
	Damage  []Damage // empty: every page was read
	Kept    string   // Salvage: where the damaged file is kept
}

// Damage is what is wrong with a store. A check of the file as a whole
// (its freelist, its length) that failed has Lost false: it loses no key
// that can be read. Otherwise Lost is true and the keys after After and
// before Before (nil: from the first, to the last) in Bucket ("": the top
// level) could not be read.
type Damage struct {
	Bucket        string
	After, Before []byte
	Lost          bool
	Reason        string
}

// Lost says whether the damage cost any key.
func (r Report) Lost() bool {
	return slices.ContainsFunc(r.Damage, func(d Damage) bool { return d.Lost })
}

// Verify reads every bucket and key of the store at path, changing
// nothing, and reports the damage it meets. The error is ErrLocked while
// another process holds the store, or a failure to read the file that is
// not damage.
func Verify(path string) (Report, error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	var r Report
	if err := checkFile(path, &r); err != nil {
		return r, err
	}
	src, err := openToRead(path, &r)
	if src == nil || err != nil {
		return r, err
	}
	defer src.Close()
	return r, (&walker{report: &r}).walk(src)
}

// Salvage copies everything that can be read of the store at path into a
// new store, which takes its place; the damaged file is kept beside it as
// path.damaged-TIME, its bytes unchanged. Unreadable pages and buckets are
// skipped and reported. Salvage of a file with nothing readable leaves an
// empty store, and the damaged file kept.
func Salvage(path string, now time.Time) (r Report, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	if err := checkFile(path, &r); err != nil {
		return r, err
	}
	// The damaged file stays open, and so locked, until it has its second
	// name: no Hermes writes to it in between.
	src, err := openToRead(path, &r)
	if err != nil {
		return r, err
	}
	if src != nil {
		defer src.Close()
	}
	tmp := path + ".salvage"
	if err := os.Remove(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return r, fmt.Errorf("remove %s: %w", tmp, err)
	}
	defer func() { _ = os.Remove(tmp) }() // gone by then, unless something failed
	dst, err := bolt.Open(tmp, 0o600, &bolt.Options{Timeout: lockTimeout, NoSync: true, FreelistType: bolt.FreelistMapType})
	if err != nil {
		return r, fmt.Errorf("create %s: %w", tmp, err)
	}
	if src != nil {
		err = (&walker{report: &r, dst: dst}).walk(src)
	}
	// The copy is synced once, whole, before it can take the store's place.
	if err := errors.Join(err, dst.Sync(), dst.Close()); err != nil {
		return r, err
	}
	// The new store opens as any store does, with this version's buckets.
	s, err := Open(tmp)
	if err != nil {
		return r, err
	}
	if err := s.Close(); err != nil {
		return r, err
	}
	kept := path + ".damaged-" + now.Format("20060102-150405")
	if err := keep(path, kept); err != nil {
		return r, err
	}
	if src != nil {
		_ = src.Close() // Windows renames only a file no one has open
	}
	if err := atomicfile.Rename(tmp, path); err != nil {
		return r, fmt.Errorf("rename %s: %w", tmp, err)
	}
	r.Kept = kept
	return r, nil
}

// checkFile makes the checks Open makes, without writing, and adds the
// damage they find to r. The freelist is among them, which a walk of the
// keys never reads.
func checkFile(path string, r *Report) error {
	db, err := openBolt(path, &bolt.Options{Timeout: lockTimeout, ReadOnly: true, PreLoadFreelist: true}, true)
	if err == nil {
		return db.Close()
	}
	if r.noteDamage(err, false) { // the walk says what is lost
		return nil
	}
	return err
}

// openToRead opens the store at path read-only for a walk, without loading
// its freelist or asking for every page: a file cut short still has pages
// to read. A file with nothing readable is damage in the report, and no
// database.
func openToRead(path string, r *Report) (*bolt.DB, error) {
	db, err := openBolt(path, &bolt.Options{Timeout: lockTimeout, ReadOnly: true}, false)
	if r.noteDamage(err, true) {
		return nil, nil
	}
	return db, err
}

// walk reads db, top level first.
func (w *walker) walk(db *bolt.DB) error {
	st, err := os.Stat(db.Path())
	if err != nil {
		return fmt.Errorf("stat %s: %w", db.Path(), err)
	}
	w.limit = int(st.Size())
	return db.View(func(tx *bolt.Tx) error {
		if reason := guard(func() { w.bucket(tx, nil) }); reason != "" {
			w.damage(nil, nil, nil, reason)
		}
		w.flush()
		return w.err
	})
}

// noteDamage adds err to the report if it is damage, and says so; lost
// says whether it keeps the keys from being read.
func (r *Report) noteDamage(err error, lost bool) bool {
	var d *damageError
	if !errors.As(err, &d) {
		return false
	}
	if i := slices.IndexFunc(r.Damage, func(x Damage) bool { return x.Bucket == "" && x.Reason == d.why }); i >= 0 {
		r.Damage[i].Lost = r.Damage[i].Lost || lost
	} else {
		r.Damage = append(r.Damage, Damage{Reason: d.why, Lost: lost})
	}
	return true
}

// keep puts the damaged file's bytes at kept: a second name for the same
// file, or a whole copy where links are not supported.
func keep(path, kept string) error {
	if _, err := os.Lstat(kept); err == nil {
		return fmt.Errorf("keep the damaged store as %s: %w", kept, fs.ErrExist)
	}
	if os.Link(path, kept) == nil {
		return nil
	}
	err := atomicfile.Write(kept, 0o600, func(w io.Writer) error {
		in, err := os.Open(path)
		if err != nil {
			return err
		}
		defer in.Close()
		_, err = io.Copy(w, in)
		return err
	}, atomicfile.NoReplace())
	if err != nil {
		return fmt.Errorf("keep the damaged store as %s: %w", kept, err)
	}
	return nil
}

// guard runs f and returns the panic or memory fault of bbolt's that
// stopped it, as text; "" when f finished. The caller has
// debug.SetPanicOnFault on, so that reading a page past the end of a file
// cut short panics instead of killing the process.
func guard(f func()) (reason string) {
	defer func() {
		if r := recover(); r != nil {
			reason = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

// walker reads a store bucket by bucket, key by key, going around what it
// cannot read, and copies what it reads into dst (nil: it only counts).
type walker struct {
	report  *Report
	dst     *bolt.DB
	limit   int // the file's size: no key or value is longer
	pending []write
	size    int // bytes pending
	err     error
}

// write is one pending write to dst: a key, or a bucket with its sequence.
type write struct {
	bucket     [][]byte
	key, value []byte // key nil: create the bucket
	seq        uint64
}

// container is a transaction (the top level) or a bucket.
type container interface {
	Cursor() *bolt.Cursor
	Bucket(name []byte) *bolt.Bucket
}

// bucket walks c forwards until a page cannot be read, then backwards from
// its last key to meet the forward walk, so one damaged page loses only
// the keys it held.
func (w *walker) bucket(c container, path [][]byte) {
	var last []byte
	reason := guard(func() {
		cur := c.Cursor()
		for k, v := cur.First(); k != nil && w.err == nil; k, v = cur.Next() {
			if last != nil && bytes.Compare(k, last) <= 0 {
				panic("keys out of order")
			}
			w.entry(c, path, k, v)
			last = bytes.Clone(k)
		}
	})
	if reason == "" {
		return
	}
	var first []byte
	guard(func() {
		cur := c.Cursor()
		for k, v := cur.Last(); k != nil && w.err == nil && (last == nil || bytes.Compare(k, last) > 0); k, v = cur.Prev() {
			if first != nil && bytes.Compare(k, first) >= 0 {
				panic("keys out of order")
			}
			w.entry(c, path, k, v)
			first = bytes.Clone(k)
		}
	})
	w.damage(path, last, first, reason)
}

// entry reads one key of c: a value, or a nested bucket to walk.
func (w *walker) entry(c container, path [][]byte, k, v []byte) {
	if len(k)+len(v) > w.limit {
		panic("a key or value longer than the file")
	}
	if v != nil {
		if len(path) == 0 {
			panic("a value outside any bucket")
		}
		w.add(write{bucket: path, key: bytes.Clone(k), value: bytes.Clone(v)})
		return
	}
	name := bytes.Clone(k)
	if len(path) == 0 && w.dst != nil && derived[string(name)] {
		return // see RegisterDerived
	}
	child := append(slices.Clip(path), name)
	var b *bolt.Bucket
	reason := guard(func() { b = c.Bucket(name) })
	if b == nil {
		w.damage(child, nil, nil, cmp.Or(reason, "the bucket cannot be read"))
		return
	}
	w.report.Buckets++
	w.add(write{bucket: child, seq: b.Sequence()})
	w.bucket(b, child)
}

func (w *walker) damage(path [][]byte, after, before []byte, reason string) {
	w.report.Damage = append(w.report.Damage, Damage{Bucket: bucketName(path), After: after, Before: before, Lost: true, Reason: reason})
}

// add counts a key and queues it for dst, writing the queue in one
// transaction every few megabytes.
func (w *walker) add(wr write) {
	if w.dst == nil {
		if wr.key != nil {
			w.report.Keys++
		}
		return
	}
	w.pending = append(w.pending, wr)
	w.size += len(wr.key) + len(wr.value)
	if w.size > 4<<20 {
		w.flush()
	}
}

// flush writes the pending keys to dst. A key dst refuses (one a damaged
// page made up, too long or empty) is reported and skipped.
func (w *walker) flush() {
	pending := w.pending
	w.pending, w.size = nil, 0
	if w.dst == nil || len(pending) == 0 || w.err != nil {
		return
	}
	w.err = w.dst.Update(func(tx *bolt.Tx) error {
		for _, wr := range pending {
			b, err := tx.CreateBucketIfNotExists(wr.bucket[0])
			for _, name := range wr.bucket[1:] {
				if err == nil {
					b, err = b.CreateBucketIfNotExists(name)
				}
			}
			switch {
			case err == nil && wr.key == nil:
				err = b.SetSequence(wr.seq)
			case err == nil:
				if err = b.Put(wr.key, wr.value); err == nil {
					w.report.Keys++
				}
			}
			if err != nil {
				w.damage(wr.bucket, wr.key, nil, "cannot be saved: "+err.Error())
			}
		}
		return nil
	})
}

// bucketName is a bucket's path as a person reads it.
func bucketName(path [][]byte) string {
	names := make([]string, len(path))
	for i, p := range path {
		names[i] = KeyText(p)
	}
	return strings.Join(names, "/")
}

// KeyText shows a key as text when it is printable, in hex otherwise.
func KeyText(k []byte) string {
	s := string(k)
	if s != "" && strings.IndexFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f || r == 0xfffd }) < 0 {
		return s
	}
	return fmt.Sprintf("0x%x", k)
}
