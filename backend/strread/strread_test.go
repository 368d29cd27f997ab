package strread

import (
	"encoding/binary"
	"testing"
)

func TestReader(t *testing.T) {
	var b []byte
	b = binary.AppendUvarint(b, 3)
	b = append(b, "abc"...)
	b = binary.AppendVarint(b, -7)
	b = binary.AppendVarint(b, 2)
	b = append(b, "xy"...)
	r := New(string(b))
	if s := r.Str(); s != "abc" {
		t.Fatalf("Str = %q", s)
	}
	if v := r.Varint(); v != -7 {
		t.Fatalf("Varint = %d", v)
	}
	if n := r.VarintCount(); n != 2 || r.Raw(n) != "xy" || !r.Done() {
		t.Fatalf("VarintCount = %d, done %v", n, r.Done())
	}
}

// A length past the end, a read past it, or a negative length fails once
// and for all.
func TestReader_Damaged(t *testing.T) {
	long := string(binary.AppendUvarint(nil, 100)) + "a"
	tests := []struct {
		name string
		data string
		read func(*Reader)
	}{
		{"length past the end", long, func(r *Reader) { r.Str() }},
		{"raw past the end", long, func(r *Reader) { r.Raw(10) }},
		{"no varint left", long, func(r *Reader) { r.Raw(2); r.Uvarint() }},
		{"negative length", string(binary.AppendVarint(nil, -1)), func(r *Reader) { r.VarintCount() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := New(tt.data)
			tt.read(r)
			if !r.Bad() || r.Done() || r.Str() != "" || r.Uvarint() != 0 {
				t.Fatal("a damaged read did not stay failed")
			}
		})
	}
}

// FromBytes reads what New reads, from the bytes themselves.
func TestFromBytes(t *testing.T) {
	b := append(binary.AppendUvarint(nil, 5), "notes"...)
	r := FromBytes(b)
	if s := r.Str(); s != "notes" || !r.Done() {
		t.Fatalf("Str = %q, done %v", s, r.Done())
	}
	if !FromBytes(nil).Done() {
		t.Fatal("an empty slice does not read as an empty string")
	}
}
