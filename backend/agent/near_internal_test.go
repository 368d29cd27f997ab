package agent

import "testing"

// Hermes's notes about a result are left out of the near-duplicate guard's
// comparison, in each of their forms; text of the user's that only looks
// like one stays.
func TestWithoutNotes(t *testing.T) {
	cases := []struct{ text, want string }{
		{"line 1\nline 2\n[lines 1-2 of 400; call read_file with offset_line=3 to read on]", "line 1\nline 2"},
		{"line 399\nline 400\n[lines 399-400 of 400; this is the end of the file]", "line 399\nline 400"},
		{"abc\n[line 3 is longer than 100000 bytes and was cut; call read_file with offset_line=4 to read the lines after it]", "abc"},
		{"abc\n[line 1 is longer than 100000 bytes and was cut; it is the last line of the file]", "abc"},
		{"abcd\n[characters 0 to 4 of 9; to read on, call read_artifact with offset 4]", "abcd"},
		{"head\n\n[... 12000 of 20000 characters cut here (characters 5333 to 17333); the whole output is saved as artifacts/r/c. To read the cut part, call read_artifact with ref \"artifacts/r/c\", offset 5333 and limit 4000.]\n\ntail", "head\n\n\ntail"},
		{"head\n[... 4096 bytes of output cut here ...]\ntail", "head\ntail"},
		{"a.txt\nb.txt\n… 12 more entries not shown; list a subdirectory to see them.", "a.txt\nb.txt"},
		{"1. a.md — a\n\n9 notes more not shown; raise limit or narrow the search.", "1. a.md — a\n"},
		// The user's own brackets.
		{"[model]\nbase_url = \"x\"\n[lines]\n[1, 2, 3]", "[model]\nbase_url = \"x\"\n[lines]\n[1, 2, 3]"},
		{"see [lines 1-2 of 4; below]", "see [lines 1-2 of 4; below]"},
		{"第1行：内容\n[第2行]", "第1行：内容\n[第2行]"},
	}
	for _, c := range cases {
		if got := withoutNotes(c.text); got != c.want {
			t.Errorf("withoutNotes(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}
