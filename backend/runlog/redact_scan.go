package runlog

import (
	"bytes"
	"encoding/binary"
	"math"
)

// Redact runs on every event, so it reads the text once rather than
// searching it once for each of the dozen forms of each secret. Every
// window of gram bytes of every form is kept in a filter; the text is read
// at a stride short enough that a window of any occurrence falls on it,
// line breaks and all, and only a window the filter knows is checked
// against the forms that hold it.

// gram is the width of a window.
const gram = 4

// minWrapWidth is the narrowest wrapping an encoded form is found across:
// on lines of at least this many characters (base64 wraps at 76, xxd -p at
// 60) it is found wherever the breaks fall.
const minWrapWidth = 16

// formSet is the forms of every secret a Redactor knows, and their
// windows.
type formSet struct {
	pats   []pattern
	filter [1 << 16 / 64]uint64 // a bit for each window's hash
	// windows of the forms, by bucket: bucket k's are
	// windows[starts[k]:starts[k+1]].
	windows []window
	starts  [buckets + 1]int32
	stride  int
}

// buckets is how many buckets the windows are sorted into, by their hash.
const buckets = 1 << 12

func bucket(h uint32) uint32 { return h >> 4 }

// window is one of a form's windows: pats[pat][off:off+gram], read as w.
type window struct {
	w        uint32
	pat, off int32
}

func newFormSet(pats []pattern) *formSet {
	n := 0
	for _, p := range pats {
		n += len(p.b) - gram + 1
	}
	fs := &formSet{pats: pats, windows: make([]window, n), stride: math.MaxInt}
	for _, p := range pats {
		// The longest piece of an occurrence that is sure to be on one
		// line: all of an exact form; for an encoded one wrapped, its
		// longer half or a full line. A stride of piece-gram+1 lands in it.
		// The shortest forms (minSecretLen, minBase64Form) leave pieces of
		// at least gram bytes.
		piece := len(p.b)
		if p.kind != exact {
			piece = min((len(p.b)+1)/2, minWrapWidth)
		}
		fs.stride = max(min(fs.stride, piece-gram+1), 1)
		for off := 0; off+gram <= len(p.b); off++ {
			h := hash(binary.LittleEndian.Uint32(p.b[off:]))
			fs.filter[h/64] |= 1 << (h % 64)
			fs.starts[bucket(h)+1]++
		}
	}
	for k := range buckets {
		fs.starts[k+1] += fs.starts[k]
	}
	var fill [buckets]int32
	for i, p := range pats {
		for off := 0; off+gram <= len(p.b); off++ {
			w := binary.LittleEndian.Uint32(p.b[off:])
			k := bucket(hash(w))
			fs.windows[fs.starts[k]+fill[k]] = window{w, int32(i), int32(off)}
			fill[k]++
		}
	}
	return fs
}

func hash(w uint32) uint32 { return (w * 0x9e3779b1) >> 16 }

// find returns the spans of b to replace: every occurrence of an exact
// form, and the block holding every occurrence of an encoded one; nil for
// none.
func (fs *formSet) find(b []byte) []span {
	var spans []span
	for i := 0; i+gram <= len(b); i += fs.stride {
		w := binary.LittleEndian.Uint32(b[i:])
		h := hash(w)
		if fs.filter[h/64]&(1<<(h%64)) == 0 {
			continue
		}
		k := bucket(h)
		for _, a := range fs.windows[fs.starts[k]:fs.starts[k+1]] {
			if a.w != w {
				continue
			}
			p := fs.pats[a.pat]
			sp, ok := p.around(b, i, int(a.off))
			if !ok || covered(spans, sp) {
				continue
			}
			if p.kind != exact {
				sp = block(b, sp.s, sp.e, p.kind)
			}
			sp.s = escapeStart(b, sp.s)
			spans = append(spans, sp)
		}
	}
	return spans
}

// around reports whether p occurs in b with its window at off found at i,
// and where. An encoded form may be broken by single line breaks.
func (p pattern) around(b []byte, i, off int) (span, bool) {
	if p.kind == exact {
		s := i - off
		ok := s >= 0 && s+len(p.b) <= len(b) && bytes.Equal(b[s:s+len(p.b)], p.b)
		return span{s, s + len(p.b)}, ok
	}
	s := i
	for k := off - 1; k >= 0; k-- {
		s -= breakBefore(b, s)
		if s == 0 || b[s-1] != p.b[k] {
			return span{}, false
		}
		s--
	}
	e := i + gram
	for k := off + gram; k < len(p.b); k++ {
		e += breakAt(b, e)
		if e >= len(b) || b[e] != p.b[k] {
			return span{}, false
		}
		e++
	}
	return span{s, e}, true
}

// covered reports whether sp lies in one of spans: found already.
func covered(spans []span, sp span) bool {
	for _, c := range spans {
		if c.s <= sp.s && sp.e <= c.e {
			return true
		}
	}
	return false
}

// escapeStart moves the start s of a span back to the start of the JSON
// escape it falls in (\t, \u00e9: a hex block may start on its digits),
// so that what is left of a JSON text is still JSON.
func escapeStart(b []byte, s int) int {
	for k := 1; k <= 4 && s-k > 0 && hexAlphabet[b[s-k+1]]; k++ {
		if b[s-k] == 'u' && b[s-k-1] == '\\' {
			s -= k
			break
		}
	}
	for s > 0 && b[s-1] == '\\' {
		s--
	}
	return s
}
