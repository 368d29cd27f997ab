package vault

import (
	"bufio"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"maps"
	"slices"

	"hermes/backend/strread"
)

// notesMagic opens notes.bin, what the index knows of each note. It is read
// whole by every process that opens the vault, so it is a flat binary
// file whose strings are cut from one string instead of allocated one by
// one.
const notesMagic = "HRMSNTS\n"

var errNotes = errors.New("notes file damaged")

// writeNotes writes notes and a checksum to w.
func writeNotes(w io.Writer, vault string, notes map[string]*Note) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	sum := crc32.NewIEEE()
	out := io.MultiWriter(bw, sum)
	var b []byte
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	num := func(n int64) { b = binary.AppendVarint(b, n) }
	b = append(b, notesMagic...)
	num(storeVersion)
	str(vault)
	num(int64(len(notes)))
	for _, p := range slices.Sorted(maps.Keys(notes)) {
		n := notes[p]
		str(n.Path)
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
		num(n.ModTime)
		num(n.Size)
		if len(b) > 1<<16 {
			if _, err := out.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
	}
	if _, err := out.Write(b); err != nil {
		return err
	}
	if _, err := bw.Write(binary.LittleEndian.AppendUint32(nil, sum.Sum32())); err != nil {
		return err
	}
	return bw.Flush()
}

// readNotes decodes what writeNotes wrote.
func readNotes(data []byte) ([]*Note, error) {
	if len(data) < 4 || crc32.ChecksumIEEE(data[:len(data)-4]) != binary.LittleEndian.Uint32(data[len(data)-4:]) {
		return nil, errNotes
	}
	r := strread.New(string(data[:len(data)-4]))
	if r.Raw(len(notesMagic)) != notesMagic || r.Varint() != storeVersion {
		return nil, errNotes
	}
	r.Str() // the vault, for a person looking into HOME/index
	notes := make([]*Note, r.VarintCount())
	for i := range notes {
		n := &Note{Path: r.Str()}
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
		n.ModTime, n.Size = r.Varint(), r.Varint()
		notes[i] = n
	}
	if !r.Done() {
		return nil, errNotes
	}
	return notes, nil
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
