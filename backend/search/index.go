// Package search is a full-text index: documents with an id, text fields
// and keywords, ranked by BM25 with per-field weights, Chinese (and other
// CJK) text split into character pairs. It is updated a document at a
// time and saved to a directory; opened again, it reads its documents and
// leaves each term's postings in the file's bytes until a query needs them.
//
// The vault tools index notes with it; long-term memory can index its
// entries the same way, with fields and keywords of its own.
package search

import (
	"encoding/binary"
	"maps"
	"math"
	"slices"
	"strings"
	"sync"

	"hermes/backend/strread"
)

// Document is one thing to find.
type Document struct {
	ID string
	// Fields are the texts searched, by field name ("title", "body"); a
	// field's weight comes from Options.FieldWeights.
	Fields map[string]string
	// Keywords are exact values that a query can filter on (tags, folders),
	// kept in the index and returned with each hit.
	Keywords map[string][]string
}

// Options tune the ranking.
type Options struct {
	// FieldWeights counts a term found in a field this many times (title: 3
	// makes a title word weigh as three body words); a field not named
	// weighs 1.
	FieldWeights map[string]int
	// K1 and B are BM25's term-frequency saturation and length
	// normalisation; zero means the usual 1.2 and 0.75.
	K1, B float64
}

// Index is a full-text index. It is safe for concurrent use.
type Index struct {
	opts Options

	mu   sync.RWMutex
	docs []doc
	byID map[string]uint32
	// terms holds the postings built or changed in memory; a term not in
	// it is looked up in base, the dictionary of the file the index was
	// opened from, if any.
	terms map[string]*postings
	base  *segment
	live  int
	// totalLen is the sum of live documents' weighted lengths, for BM25's
	// average document length.
	totalLen float64
	// fileSum is the checksum of the file last opened or saved.
	fileSum uint32
}

type doc struct {
	id     string
	length uint32 // weighted number of terms
	// keywords are encoded (see encodeKeywords): a saved index opens
	// without building a map per document, and a filter reads them in
	// place.
	keywords string
	live     bool
}

// postings lists the documents holding a term, in ascending document
// order, with the term's weighted frequency in each. A replaced or deleted
// document stays listed until the index is compacted, and is skipped.
type postings struct {
	docs []uint32
	tfs  []uint16
}

// New returns an empty index.
func New(opts Options) *Index {
	if opts.K1 == 0 {
		opts.K1 = 1.2
	}
	if opts.B == 0 {
		opts.B = 0.75
	}
	return &Index{opts: opts, byID: map[string]uint32{}, terms: map[string]*postings{}}
}

// Len is the number of documents in the index.
func (ix *Index) Len() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.live
}

// Has reports whether a document with this id is in the index.
func (ix *Index) Has(id string) bool {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	_, ok := ix.byID[id]
	return ok
}

// Put adds d, replacing the document with the same id.
func (ix *Index) Put(d Document) {
	counts := ix.count(d)
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.deleteLocked(d.ID)
	n := uint32(len(ix.docs))
	var length uint32
	for i, term := range counts.terms {
		tf := counts.tfs[i]
		p := ix.terms[term]
		if p == nil {
			// A term of the file is copied out before it changes.
			if p = ix.baseLocked(term); p == nil {
				p = &postings{}
			}
			ix.terms[term] = p
		}
		p.docs = append(p.docs, n)
		p.tfs = append(p.tfs, tf)
		length += uint32(tf)
	}
	ix.docs = append(ix.docs, doc{id: d.ID, length: length, keywords: encodeKeywords(d.Keywords), live: true})
	ix.byID[d.ID] = n
	ix.live++
	ix.totalLen += float64(length)
}

// counted is a document's terms with their weighted frequencies.
type counted struct {
	terms []string
	tfs   []uint16
}

// count tokenises d's fields; it runs outside the lock, so that callers
// may tokenise documents concurrently.
func (ix *Index) count(d Document) counted {
	slot := map[string]int{} // term → its place in c; looked up without allocating
	var c counted
	buf := make([]byte, 0, 64)
	for field, text := range d.Fields {
		w, ok := ix.opts.FieldWeights[field]
		if !ok {
			w = 1
		}
		if w <= 0 {
			continue
		}
		tokens(text, buf, func(b []byte) {
			if i, ok := slot[string(b)]; ok {
				c.tfs[i] = satAdd(c.tfs[i], w)
				return
			}
			term := string(b)
			slot[term] = len(c.terms)
			c.terms = append(c.terms, term)
			c.tfs = append(c.tfs, satAdd(0, w))
		})
	}
	return c
}

func satAdd(c uint16, w int) uint16 {
	return uint16(min(int(c)+w, math.MaxUint16))
}

// Delete removes the document with this id and reports whether there was
// one.
func (ix *Index) Delete(id string) bool {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.deleteLocked(id)
}

func (ix *Index) deleteLocked(id string) bool {
	n, ok := ix.byID[id]
	if !ok {
		return false
	}
	d := &ix.docs[n]
	d.live = false
	d.keywords = ""
	delete(ix.byID, id)
	ix.live--
	ix.totalLen -= float64(d.length)
	// Dead documents cost memory and skew document frequencies: once they
	// are a quarter of the index, rebuild the postings without them.
	if dead := len(ix.docs) - ix.live; dead > 64 && dead > ix.live/4 {
		ix.compactLocked()
	}
	return true
}

// compactLocked drops dead documents and renumbers the live ones.
func (ix *Index) compactLocked() {
	// Renumbering changes every term's postings: take them all out of the
	// file first.
	for _, term := range ix.sortedTermsLocked() {
		if ix.terms[term] == nil {
			if p := ix.baseLocked(term); p != nil {
				ix.terms[term] = p
			}
		}
	}
	ix.base = nil
	renum := make([]uint32, len(ix.docs))
	docs := make([]doc, 0, ix.live)
	for i, d := range ix.docs {
		if d.live {
			renum[i] = uint32(len(docs))
			ix.byID[d.id] = uint32(len(docs))
			docs = append(docs, d)
		}
	}
	for term, p := range ix.terms {
		k := 0
		for i, n := range p.docs {
			if ix.docs[n].live {
				p.docs[k], p.tfs[k] = renum[n], p.tfs[i]
				k++
			}
		}
		if k == 0 {
			delete(ix.terms, term)
			continue
		}
		p.docs, p.tfs = slices.Clip(p.docs[:k]), slices.Clip(p.tfs[:k])
	}
	ix.docs = docs
}

// lookupLocked returns the postings of term, from memory or decoded from
// the file, or nil.
func (ix *Index) lookupLocked(term string) *postings {
	if p := ix.terms[term]; p != nil {
		return p
	}
	return ix.baseLocked(term)
}

// baseLocked decodes the postings of term from the file the index was
// opened from, or returns nil. The file's checksum was checked when it was
// opened: a term that fails to decode here is treated as absent.
func (ix *Index) baseLocked(term string) *postings {
	if ix.base == nil {
		return nil
	}
	i := ix.base.find(term)
	if i < 0 {
		return nil
	}
	p, err := ix.base.postings(i)
	if err != nil {
		return nil
	}
	return p
}

// eachTermLocked calls f with every term and a way to get its postings,
// the ones in memory first.
func (ix *Index) eachTermLocked(f func(term string, get func() *postings)) {
	for t, p := range ix.terms {
		f(t, func() *postings { return p })
	}
	if ix.base == nil {
		return
	}
	for i := range ix.base.n {
		t, _, _, err := ix.base.entry(i)
		if err != nil || ix.terms[string(t)] != nil {
			continue
		}
		f(string(t), func() *postings {
			p, err := ix.base.postings(i)
			if err != nil {
				return nil
			}
			return p
		})
	}
}

// sortedTermsLocked lists every term, in memory or in the file, in byte
// order.
func (ix *Index) sortedTermsLocked() []string {
	var out []string
	ix.eachTermLocked(func(t string, _ func() *postings) { out = append(out, t) })
	slices.Sort(out)
	return out
}

// Keywords returns the keywords of the document with this id.
func (ix *Index) Keywords(id string) (map[string][]string, bool) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	n, ok := ix.byID[id]
	if !ok {
		return nil, false
	}
	return decodeKeywords(ix.docs[n].keywords), true
}

// FileSum is the checksum of the file the index was last opened from or
// saved to, 0 before either: a file saved beside the index can record it,
// to tell later that the two were saved together.
func (ix *Index) FileSum() uint32 {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.fileSum
}

// encodeKeywords writes k as its number of keys, then each key in order
// with its number of values and the values, every string preceded by its
// length; no keywords are "".
func encodeKeywords(k map[string][]string) string {
	if len(k) == 0 {
		return ""
	}
	b := binary.AppendUvarint(nil, uint64(len(k)))
	for _, key := range slices.Sorted(maps.Keys(k)) {
		b = appendString(b, key)
		b = binary.AppendUvarint(b, uint64(len(k[key])))
		for _, v := range k[key] {
			b = appendString(b, v)
		}
	}
	return string(b)
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// eachKeyword calls f with every key and its values as encoded, until f
// returns false; it reports whether s was whole.
func eachKeyword(s string, f func(key string, r *strread.Reader, n int) bool) bool {
	if s == "" {
		return true
	}
	r := strread.New(s)
	for range r.Count() {
		key, n := r.Str(), r.Count()
		if r.Bad() || !f(key, r, n) {
			return !r.Bad()
		}
	}
	return r.Done()
}

// decodeKeywords reads what encodeKeywords wrote; its strings share s.
func decodeKeywords(s string) map[string][]string {
	if s == "" {
		return nil
	}
	out := map[string][]string{}
	eachKeyword(s, func(key string, r *strread.Reader, n int) bool {
		vs := make([]string, n)
		for i := range vs {
			vs[i] = r.Str()
		}
		out[key] = vs
		return true
	})
	return out
}

// hasKeyword reports whether d has one of values under key, reading the
// encoded keywords without decoding them.
func (d *doc) hasKeyword(key string, values []string) bool {
	found := false
	eachKeyword(d.keywords, func(k string, r *strread.Reader, n int) bool {
		for range n {
			v := r.Str()
			if k == key && slices.ContainsFunc(values, func(want string) bool { return strings.EqualFold(v, want) }) {
				found = true
				return false
			}
		}
		return true
	})
	return found
}
