package search

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"hermes/backend/atomicfile"
)

const (
	fileName = "index.bin"
	// magic and formatVersion open the file; a file of another version is
	// ErrCorrupt, and the caller rebuilds.
	magic         = "HRMSIDX\n"
	formatVersion = 1
)

// Save writes the index to dir/index.bin, replacing the previous file
// atomically: a reader opens the old index or the new one, never half.
// Dead documents are left out, so the saved index is compact.
func (ix *Index) Save(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("save index to %s: %w", dir, err)
	}
	err := atomicfile.Write(filepath.Join(dir, fileName), 0o600, func(f io.Writer) error {
		sum := crc32.NewIEEE()
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
	return nil
}

func (ix *Index) encode(w *writer) {
	w.bytes([]byte(magic))
	w.uvarint(formatVersion)
	// Live documents are numbered afresh, in order.
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
		keys := make([]string, 0, len(d.keywords))
		for k := range d.keywords {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		w.uvarint(uint64(len(keys)))
		for _, k := range keys {
			w.string(k)
			w.uvarint(uint64(len(d.keywords[k])))
			for _, v := range d.keywords[k] {
				w.string(v)
			}
		}
	}
	w.uvarint(uint64(len(ix.terms)))
	for term, p := range ix.terms {
		w.string(term)
		live := 0
		for _, n := range p.docs {
			if ix.docs[n].live {
				live++
			}
		}
		w.uvarint(uint64(live))
		prev := uint32(0)
		for i, n := range p.docs {
			if !ix.docs[n].live {
				continue
			}
			w.uvarint(uint64(renum[n] - prev)) // ascending, so deltas are small
			prev = renum[n]
			w.uvarint(uint64(p.tfs[i]))
		}
	}
}

// Open reads the index saved in dir. It fails with ErrNoIndex when there is
// none and with ErrCorrupt when the file is damaged.
func Open(dir string, opts Options) (*Index, error) {
	path := filepath.Join(dir, fileName)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("open index %s: %w", dir, ErrNoIndex)
	}
	if err != nil {
		return nil, fmt.Errorf("open index %s: %w", dir, err)
	}
	if len(data) < 4 || crc32.ChecksumIEEE(data[:len(data)-4]) != binary.LittleEndian.Uint32(data[len(data)-4:]) {
		return nil, fmt.Errorf("open index %s: checksum mismatch: %w", dir, ErrCorrupt)
	}
	ix := New(opts)
	r := &reader{b: data[:len(data)-4]}
	if err := ix.decode(r); err != nil {
		return nil, fmt.Errorf("open index %s: %w: %w", dir, ErrCorrupt, err)
	}
	return ix, nil
}

func (ix *Index) decode(r *reader) error {
	if string(r.next(len(magic))) != magic || r.uvarint() != formatVersion {
		return errors.New("not an index of this version")
	}
	ndocs := r.count()
	ix.docs = make([]doc, 0, ndocs)
	for n := 0; n < ndocs && r.err == nil; n++ {
		d := doc{id: r.string(), length: uint32(r.uvarint()), live: true}
		if nkeys := r.count(); nkeys > 0 {
			d.keywords = make(map[string][]string, nkeys)
			for range nkeys {
				k := r.string()
				vs := make([]string, r.count())
				for i := range vs {
					vs[i] = r.string()
				}
				d.keywords[k] = vs
			}
		}
		ix.byID[d.id] = uint32(n)
		ix.totalLen += float64(d.length)
		ix.docs = append(ix.docs, d)
	}
	ix.live = len(ix.docs)
	nterms := r.count()
	ix.terms = make(map[string]*postings, nterms)
	// Opening is a cost of every process that searches: postings are cut
	// from shared arrays in chunks instead of allocated one by one, and
	// decoded in a tight loop. Capacities are clipped, so that a later
	// append copies instead of overwriting a neighbour.
	var docs []uint32
	var tfs []uint16
	nodes := make([]postings, nterms)
	for t := range nterms {
		term := r.string()
		np := r.count()
		if r.err != nil {
			break
		}
		if len(docs) < np {
			docs, tfs = make([]uint32, max(np, 1<<16)), make([]uint16, max(np, 1<<16))
		}
		p := &nodes[t]
		p.docs, p.tfs = docs[:np:np], tfs[:np:np]
		docs, tfs = docs[np:], tfs[np:]
		if err := decodePostings(r, p, uint64(ndocs)); err != nil {
			return err
		}
		ix.terms[term] = p
	}
	if r.err == nil && len(r.b) != 0 {
		return errors.New("trailing bytes")
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
	err error
	buf [binary.MaxVarintLen64]byte
}

func (w *writer) bytes(b []byte) {
	if w.err == nil {
		_, w.err = w.w.Write(b)
	}
}

func (w *writer) uvarint(v uint64) { w.bytes(w.buf[:binary.PutUvarint(w.buf[:], v)]) }

func (w *writer) string(s string) {
	w.uvarint(uint64(len(s)))
	if w.err == nil {
		_, w.err = w.w.WriteString(s)
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

func (r *reader) string() string { return string(r.next(r.count())) }
