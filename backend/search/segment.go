package search

import (
	"bytes"
	"encoding/binary"
	"errors"
	"sort"
)

// segment is the term dictionary of a saved index, read in place: terms in
// byte order, each followed by its postings still encoded, and a table of
// the entries' offsets for binary search. Opening an index reads its
// documents and leaves the postings here, so that a process that runs one
// query decodes the few terms it asks for, not the whole dictionary.
type segment struct {
	data  []byte // the file without its checksum
	table []byte // n 8-byte offsets into data
	n     int
	ndocs uint64
}

// entry is the term at i and its encoded postings.
func (s *segment) entry(i int) (term []byte, np int, enc []byte, err error) {
	off := binary.LittleEndian.Uint64(s.table[8*i:])
	if off >= uint64(len(s.data)) {
		return nil, 0, nil, errShort
	}
	r := &reader{b: s.data[off:]}
	term = r.next(r.count())
	np = r.count()
	enc = r.next(r.count())
	return term, np, enc, r.err
}

// find returns the index of term, or -1.
func (s *segment) find(term string) int {
	i := sort.Search(s.n, func(i int) bool {
		t, _, _, err := s.entry(i)
		return err != nil || string(t) >= term
	})
	if i < s.n {
		if t, _, _, err := s.entry(i); err == nil && string(t) == term {
			return i
		}
	}
	return -1
}

// postings decodes the postings of entry i.
func (s *segment) postings(i int) (*postings, error) {
	_, np, enc, err := s.entry(i)
	if err != nil {
		return nil, err
	}
	p := &postings{docs: make([]uint32, np), tfs: make([]uint16, np)}
	r := &reader{b: enc}
	if err := decodePostings(r, p, s.ndocs); err != nil {
		return nil, err
	}
	if len(r.b) != 0 {
		return nil, errors.New("trailing bytes in postings")
	}
	return p, nil
}

// openSegment reads the trailer of data (the table's offset and the number
// of terms, after the table) and checks that the table fits where it says.
func openSegment(data []byte, termsStart int, ndocs int) (*segment, error) {
	if len(data) < termsStart+16 {
		return nil, errShort
	}
	trailer := data[len(data)-16:]
	off, n := binary.LittleEndian.Uint64(trailer), binary.LittleEndian.Uint64(trailer[8:])
	end := uint64(len(data) - 16)
	if off < uint64(termsStart) || off > end || (end-off)%8 != 0 || (end-off)/8 != n {
		return nil, errors.New("term table out of place")
	}
	s := &segment{data: data, table: data[off:end], n: int(n), ndocs: uint64(ndocs)}
	// Terms are in byte order: check the ends, the rest is checked as
	// binary search goes.
	if s.n > 1 {
		first, _, _, err1 := s.entry(0)
		last, _, _, err2 := s.entry(s.n - 1)
		if err := errors.Join(err1, err2); err != nil {
			return nil, err
		}
		if bytes.Compare(first, last) >= 0 {
			return nil, errors.New("terms out of order")
		}
	}
	return s, nil
}
