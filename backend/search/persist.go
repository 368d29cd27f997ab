package search

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"

	"hermes/backend/atomicfile"

	"hermes/backend/strread"
)

const (
	fileName = "index.bin"
	// magic and formatVersion open the file; a file of another version is
	// ErrCorrupt, and the caller rebuilds.
	magic         = "HRMSIDX\n"
	formatVersion = 4
)

// Save writes the index to dir/index.bin, replacing the previous file
// atomically: a reader opens the old index or the new one, never half.
// Dead documents are left out, so the saved index is compact.
func (ix *Index) Save(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("save index to %s: %w", dir, err)
	}
	sum := crc32.NewIEEE()
	err := atomicfile.Write(filepath.Join(dir, fileName), 0o600, func(f io.Writer) error {
		sum.Reset()
		w := &writer{w: bufio.NewWriterSize(io.MultiWriter(f, sum), 1<<20)}
		ix.mu.RLock()
		ix.encode(w)
		ix.mu.RUnlock()
		if w.err == nil {
			w.err = w.w.Flush()
		}
		if w.err == nil {
			_, w.err = f.Write(binary.LittleEndian.AppendUint32(nil, sum.Sum32()))
		}
		return w.err
	})
	if err != nil {
		return fmt.Errorf("save index to %s: %w", dir, err)
	}
	ix.mu.Lock()
	ix.fileSum = sum.Sum32()
	ix.mu.Unlock()
	return nil
}

func (ix *Index) encode(w *writer) {
	w.bytes([]byte(magic))
	w.uvarint(formatVersion)
	// Live documents are numbered afresh, in order. Their section goes
	// first with its length, so that a reader turns it into one string and
	// cuts every id and keyword from it.
	var section bytes.Buffer
	dw := &writer{w: bufio.NewWriter(&section)}
	renum := ix.encodeDocs(dw)
	if dw.err == nil {
		dw.err = dw.w.Flush()
	}
	if dw.err != nil {
		w.err = dw.err
		return
	}
	w.uvarint(uint64(section.Len()))
	w.bytes(section.Bytes())
	// Terms in byte order, each with its postings' length so that a reader
	// can step over them, then the table of their offsets.
	var offsets []byte
	var enc []byte
	nterms := uint64(0)
	for _, term := range ix.sortedTermsLocked() {
		p := ix.lookupLocked(term)
		if p == nil {
			continue
		}
		enc = enc[:0]
		live, prev := 0, uint32(0)
		for i, n := range p.docs {
			if !ix.docs[n].live {
				continue
			}
			enc = binary.AppendUvarint(enc, uint64(renum[n]-prev)) // ascending, so deltas are small
			enc = binary.AppendUvarint(enc, uint64(p.tfs[i]))
			prev = renum[n]
			live++
		}
		if live == 0 {
			continue
		}
		offsets = binary.LittleEndian.AppendUint64(offsets, uint64(w.n))
		nterms++
		w.string(term)
		w.uvarint(uint64(live))
		w.uvarint(uint64(len(enc)))
		w.bytes(enc)
	}
	tableAt := uint64(w.n)
	w.bytes(offsets)
	w.bytes(binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(nil, tableAt), nterms))
}

// encodeDocs writes the live documents and returns their new numbers.
func (ix *Index) encodeDocs(w *writer) []uint32 {
	renum := make([]uint32, len(ix.docs))
	w.uvarint(uint64(ix.live))
	next := uint32(0)
	for n := range ix.docs {
		d := &ix.docs[n]
		if !d.live {
			continue
		}
		renum[n] = next
		next++
		w.string(d.id)
		w.uvarint(uint64(d.length))
		w.string(d.keywords)
	}
	return renum
}

// Open reads the documents of the index saved in dir; the terms' postings
// stay in the file's bytes until a query or a change needs them. It fails
// with ErrNoIndex when there is none and with ErrCorrupt when the file is
// damaged.
func Open(dir string, opts Options) (*Index, error) {
	data, unmap, err := readFile(filepath.Join(dir, fileName))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("open index %s: %w", dir, ErrNoIndex)
	}
	if err != nil {
		return nil, fmt.Errorf("open index %s: %w", dir, err)
	}
	ix, err := open(data, opts)
	if err != nil {
		unmap()
		return nil, fmt.Errorf("open index %s: %w", dir, err)
	}
	// Documents and terms are copied out of data as they are read: only
	// the dictionary refers to it, and the file is released with it.
	runtime.AddCleanup(ix.base, func(unmap func()) { unmap() }, unmap)
	return ix, nil
}

func open(data []byte, opts Options) (*Index, error) {
	if len(data) < 4 || crc32.ChecksumIEEE(data[:len(data)-4]) != binary.LittleEndian.Uint32(data[len(data)-4:]) {
		return nil, fmt.Errorf("checksum mismatch: %w", ErrCorrupt)
	}
	ix := New(opts)
	ix.fileSum = binary.LittleEndian.Uint32(data[len(data)-4:])
	data = data[:len(data)-4]
	r := &reader{b: data}
	if err := ix.decodeDocs(r); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	var err error
	if ix.base, err = openSegment(data, len(data)-len(r.b), len(ix.docs)); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	return ix, nil
}

func (ix *Index) decodeDocs(r *reader) error {
	if string(r.next(len(magic))) != magic || r.uvarint() != formatVersion {
		return errors.New("not an index of this version")
	}
	sr := strread.New(string(r.next(r.count())))
	ndocs := sr.Count()
	ix.docs = make([]doc, 0, ndocs)
	ix.byID = make(map[string]uint32, ndocs)
	for n := 0; n < ndocs && !sr.Bad(); n++ {
		d := doc{id: sr.Str(), length: uint32(sr.Uvarint()), keywords: sr.Str(), live: true}
		ix.byID[d.id] = uint32(n)
		ix.totalLen += float64(d.length)
		ix.docs = append(ix.docs, d)
	}
	ix.live = len(ix.docs)
	if !sr.Done() {
		return errShort
	}
	return r.err
}

// decodePostings fills p's documents and frequencies, delta-decoding the
// document numbers.
func decodePostings(r *reader, p *postings, ndocs uint64) error {
	b, prev := r.b, uint64(0)
	for i := range p.docs {
		d, n := binary.Uvarint(b)
		if n <= 0 {
			return errShort
		}
		tf, m := binary.Uvarint(b[n:])
		if m <= 0 {
			return errShort
		}
		b = b[n+m:]
		if prev += d; prev >= ndocs {
			return errors.New("posting names a document that does not exist")
		}
		p.docs[i], p.tfs[i] = uint32(prev), uint16(tf)
	}
	r.b = b
	return nil
}

// writer keeps the first error, so encode can write without checking each
// step.
type writer struct {
	w   *bufio.Writer
	n   int // bytes written
	err error
	buf [binary.MaxVarintLen64]byte
}

func (w *writer) bytes(b []byte) {
	if w.err == nil {
		_, w.err = w.w.Write(b)
		w.n += len(b)
	}
}

func (w *writer) uvarint(v uint64) { w.bytes(w.buf[:binary.PutUvarint(w.buf[:], v)]) }

func (w *writer) string(s string) {
	w.uvarint(uint64(len(s)))
	if w.err == nil {
		_, w.err = w.w.WriteString(s)
		w.n += len(s)
	}
}

// reader decodes from a byte slice and keeps the first error.
type reader struct {
	b   []byte
	err error
}

var errShort = errors.New("unexpected end of file")

func (r *reader) next(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b) {
		r.fail(errShort)
		return nil
	}
	b := r.b[:n]
	r.b = r.b[n:]
	return b
}

func (r *reader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
	r.b = nil
}

func (r *reader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail(errShort)
		return 0
	}
	r.b = r.b[n:]
	return v
}

// count reads a length, refusing one larger than the bytes left could hold.
func (r *reader) count() int {
	v := r.uvarint()
	if v > uint64(len(r.b)) {
		r.fail(errShort)
		return 0
	}
	return int(v)
}
