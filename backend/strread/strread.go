// Package strread cuts varints and strings from one string, so that the
// strings it returns share it instead of each being allocated: the saved
// indexes (backend/search, backend/vault) decode thousands of them at every
// open. After a failure every read returns a zero value and Bad says so;
// a decoder checks once, at the end.
package strread

import (
	"encoding/binary"
	"unsafe"
)

// Reader reads s from the start.
type Reader struct {
	s   string
	at  int
	bad bool
}

// New returns a reader of s.
func New(s string) *Reader { return &Reader{s: s} }

// FromBytes returns a reader of b that shares b instead of copying it, for
// a file read whole for the purpose: b must never change afterwards, since
// the strings read from it are b's bytes.
func FromBytes(b []byte) *Reader { return New(unsafe.String(unsafe.SliceData(b), len(b))) }

// Bad says whether a read failed: s was too short or held a wrong value.
func (r *Reader) Bad() bool { return r.bad }

// Done says whether every byte was read and no read failed.
func (r *Reader) Done() bool { return !r.bad && r.at == len(r.s) }

// Raw is the next n bytes.
func (r *Reader) Raw(n int) string {
	if r.bad || n < 0 || n > len(r.s)-r.at {
		r.bad = true
		return ""
	}
	s := r.s[r.at : r.at+n]
	r.at += n
	return s
}

// Uvarint reads an unsigned varint.
func (r *Reader) Uvarint() uint64 {
	if r.bad {
		return 0
	}
	v, n := binary.Uvarint([]byte(r.s[r.at:min(len(r.s), r.at+binary.MaxVarintLen64)]))
	if n <= 0 {
		r.bad = true
		return 0
	}
	r.at += n
	return v
}

// Varint reads a signed varint.
func (r *Reader) Varint() int64 {
	if r.bad {
		return 0
	}
	v, n := binary.Varint([]byte(r.s[r.at:min(len(r.s), r.at+binary.MaxVarintLen64)]))
	if n <= 0 {
		r.bad = true
		return 0
	}
	r.at += n
	return v
}

// Count reads a length as an unsigned varint, refusing one larger than the
// bytes left could hold, so a damaged file never makes a huge allocation.
func (r *Reader) Count() int { return r.bounded(int64(min(r.Uvarint(), 1<<62))) }

// VarintCount is Count for a length written as a signed varint.
func (r *Reader) VarintCount() int { return r.bounded(r.Varint()) }

func (r *Reader) bounded(v int64) int {
	if v < 0 || v > int64(len(r.s)-r.at) {
		r.bad = true
		return 0
	}
	return int(v)
}

// Str reads a string written as its length (an unsigned varint) and bytes.
func (r *Reader) Str() string { return r.Raw(r.Count()) }
