package vault

import (
	"bufio"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"maps"
	"slices"
	"sort"

	"hermes/backend/strread"
)

// notesMagic opens notes.bin, what the index knows of each note. Every
// process that opens the vault reads its table (each note's path and
// stamp, to find what changed); the rest of a note is decoded only when a
// tool asks for that note, or for every note.
const notesMagic = "HRMSNTS\n"

var errNotes = errors.New("notes file damaged")

// writeNotes writes notes and a checksum to w: a header (the vault, the
// checksum of the search index saved with it, the number of notes), the
// table (each note's path, stamp and the length of its record, in path
// order), the records in the same order, and the file's checksum.
func writeNotes(w io.Writer, vault string, indexSum uint32, notes map[string]*Note) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	sum := crc32.NewIEEE()
	out := io.MultiWriter(bw, sum)
	paths := slices.Sorted(maps.Keys(notes))
	records := make([][]byte, len(paths))
	for i, p := range paths {
		records[i] = appendRecord(nil, notes[p])
	}
	var b []byte
	b = append(b, notesMagic...)
	b = binary.AppendVarint(b, storeVersion)
	b = appendStr(b, vault)
	b = binary.AppendUvarint(b, uint64(indexSum))
	b = binary.AppendVarint(b, int64(len(paths)))
	for i, p := range paths {
		b = appendStr(b, p)
		b = binary.AppendVarint(b, notes[p].ModTime)
		b = binary.AppendVarint(b, notes[p].Size)
		b = binary.AppendUvarint(b, uint64(len(records[i])))
	}
	if _, err := out.Write(b); err != nil {
		return err
	}
	for _, r := range records {
		if _, err := out.Write(r); err != nil {
			return err
		}
	}
	if _, err := bw.Write(binary.LittleEndian.AppendUint32(nil, sum.Sum32())); err != nil {
		return err
	}
	return bw.Flush()
}

// appendRecord appends what the table leaves out of n.
func appendRecord(b []byte, n *Note) []byte {
	num := func(v int64) { b = binary.AppendVarint(b, v) }
	str := func(s string) { b = appendStr(b, s) }
	num(int64(len(n.Front)))
	for _, k := range slices.Sorted(maps.Keys(n.Front)) {
		str(k)
		num(int64(len(n.Front[k])))
		for _, s := range n.Front[k] {
			str(s)
		}
	}
	for _, list := range [][]string{n.Aliases, n.Tags} {
		num(int64(len(list)))
		for _, s := range list {
			str(s)
		}
	}
	num(int64(len(n.Links)))
	for _, l := range n.Links {
		str(l.Target)
		str(l.Heading)
		num(int64(l.Line))
	}
	num(int64(len(n.Headings)))
	for _, h := range n.Headings {
		num(int64(h.Level))
		str(h.Text)
		num(int64(h.Line))
	}
	str(string(n.Encoding))
	crlf := int64(0)
	if n.CRLF {
		crlf = 1
	}
	num(crlf)
	return b
}

func appendStr(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// savedNotes is notes.bin as read: the table decoded, each record left in
// the file's bytes until its note is asked for.
type savedNotes struct {
	indexSum uint32
	paths    []string // ascending
	stamps   []stamp
	records  []string // cut from the file, not copied
}

// readNotes reads the table of what writeNotes wrote and checks the whole
// file's checksum. The notes' strings share data, which must not change
// afterwards.
func readNotes(data []byte) (*savedNotes, error) {
	if len(data) < 4 || crc32.ChecksumIEEE(data[:len(data)-4]) != binary.LittleEndian.Uint32(data[len(data)-4:]) {
		return nil, errNotes
	}
	r := strread.FromBytes(data[:len(data)-4])
	if r.Raw(len(notesMagic)) != notesMagic || r.Varint() != storeVersion {
		return nil, errNotes
	}
	r.Str() // the vault, for a person looking into HOME/index
	s := &savedNotes{indexSum: uint32(r.Uvarint())}
	n := r.VarintCount()
	s.paths, s.stamps, s.records = make([]string, n), make([]stamp, n), make([]string, n)
	lens := make([]int, n)
	for i := range n {
		s.paths[i] = r.Str()
		modTime := r.Varint()
		s.stamps[i] = stamp{size: r.Varint(), modTime: modTime}
		lens[i] = r.Count()
		if i > 0 && s.paths[i-1] >= s.paths[i] {
			return nil, errNotes
		}
	}
	for i, l := range lens {
		s.records[i] = r.Raw(l)
	}
	if !r.Done() {
		return nil, errNotes
	}
	return s, nil
}

func (s *savedNotes) len() int { return len(s.paths) }

// unchanged reports whether onDisk lists exactly the saved notes, each
// with its saved stamp.
func (s *savedNotes) unchanged(onDisk map[string]stamp) bool {
	if len(onDisk) != len(s.paths) {
		return false
	}
	for i, p := range s.paths {
		if st, ok := onDisk[p]; !ok || st != s.stamps[i] {
			return false
		}
	}
	return true
}

// lookup decodes the note at p.
func (s *savedNotes) lookup(p string) (*Note, bool) {
	i := sort.SearchStrings(s.paths, p)
	if i == len(s.paths) || s.paths[i] != p {
		return nil, false
	}
	return s.note(i), true
}

// note decodes the i-th note. The file's checksum was checked when it was
// read; a record that does not decode yields what was read of it.
func (s *savedNotes) note(i int) *Note {
	r := strread.New(s.records[i])
	n := &Note{Path: s.paths[i], ModTime: s.stamps[i].modTime, Size: s.stamps[i].size}
	if k := r.VarintCount(); k > 0 {
		n.Front = make(map[string][]string, k)
		for range k {
			key := r.Str()
			n.Front[key] = strs(r)
		}
	}
	n.Aliases, n.Tags = strs(r), strs(r)
	if k := r.VarintCount(); k > 0 {
		n.Links = make([]Link, k)
		for j := range n.Links {
			n.Links[j] = Link{Target: r.Str(), Heading: r.Str(), Line: int(r.Varint())}
		}
	}
	if k := r.VarintCount(); k > 0 {
		n.Headings = make([]Heading, k)
		for j := range n.Headings {
			n.Headings[j] = Heading{Level: int(r.Varint()), Text: r.Str(), Line: int(r.Varint())}
		}
	}
	n.Encoding = Encoding(r.Str())
	n.CRLF = r.Varint() == 1
	return n
}

// strs reads a list of strings, its length a signed varint.
func strs(r *strread.Reader) []string {
	k := r.VarintCount()
	if k == 0 {
		return nil
	}
	out := make([]string, k)
	for i := range out {
		out[i] = r.Str()
	}
	return out
}
