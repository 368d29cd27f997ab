package chatapi

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSplit(t *testing.T) {
	cases := []struct {
		name  string
		text  string
		limit int
		parts int
	}{
		{"short", "hello", 2048, 1},
		{"empty", "", 2048, 1},
		{"exact", strings.Repeat("a", 2048), 2048, 1},
		{"one over", strings.Repeat("a", 2049), 2048, 2},
		{"chinese never cut", strings.Repeat("中", 1000), 2048, 2}, // 3 bytes each
		{"lines", strings.Repeat("line of text\n", 400), 2048, 3},
		{"emoji with a tiny limit", "😀😀", 3, 2},
	}
	for _, tc := range cases {
		parts := Split(tc.text, tc.limit)
		if len(parts) != tc.parts {
			t.Errorf("%s: %d parts, want %d", tc.name, len(parts), tc.parts)
		}
		if strings.Join(parts, "") != tc.text {
			t.Errorf("%s: parts do not add up to the text", tc.name)
		}
		for _, p := range parts {
			if !utf8.ValidString(p) {
				t.Errorf("%s: part %q cuts a character", tc.name, p)
			}
			if len(p) > tc.limit && utf8.RuneCountInString(p) > 1 {
				t.Errorf("%s: part of %d bytes over the limit %d", tc.name, len(p), tc.limit)
			}
		}
	}
	// A break falls at a line end when one is near.
	parts := Split(strings.Repeat("line of text\n", 400), 2048)
	if !strings.HasSuffix(parts[0], "\n") {
		t.Fatalf("first part ends %q, want a line break", parts[0][len(parts[0])-5:])
	}
}
