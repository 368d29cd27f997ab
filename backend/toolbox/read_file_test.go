package toolbox

import (
	"fmt"
	"strings"
	"testing"
)

// numbered returns n lines "line 1" … "line n", each ending in a newline.
func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

func TestReadFile(t *testing.T) {
	long := strings.Repeat("x", maxReadBytes+500)
	wide := strings.Repeat(strings.Repeat("w", 999)+"\n", 150)
	ws := newWorkspace(t, map[string]string{
		"notes/a.md":   "# Title\nbody 中文\n",
		"ten.txt":      numbered(10),
		"big.txt":      numbered(2500),
		"wide.txt":     wide,
		"long.txt":     long + "\nafter\n",
		"empty.txt":    "",
		"noeol.txt":    "one\ntwo",
		"latin1.txt":   "caf\xe9\n",
		"image.png":    "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
		"docs/x.md":    "x",
		"docs/y/z.txt": "z",
	})
	cases := []struct {
		name, args, want string
	}{
		{"whole file as is", `{"path":"notes/a.md"}`, "# Title\nbody 中文\n"},
		{"absolute path inside", fmt.Sprintf(`{"path":%q}`, ws+"/notes/a.md"), "# Title\nbody 中文\n"},
		{"no final newline", `{"path":"noeol.txt"}`, "one\ntwo"},
		{"a part", `{"path":"ten.txt","offset_line":3,"limit_lines":2}`,
			"line 3\nline 4\n[lines 3-4 of 10; call read_file with offset_line=5 to read on]"},
		{"the tail", `{"path":"ten.txt","offset_line":"9"}`,
			"line 9\nline 10\n[lines 9-10 of 10; this is the end of the file]"},
		{"the first lines", `{"path":"ten.txt","limit_lines":1}`,
			"line 1\n[lines 1-1 of 10; call read_file with offset_line=2 to read on]"},
		{"default limit", `{"path":"big.txt"}`,
			strings.TrimSuffix(numbered(2000), "\n") + "\n[lines 1-2000 of 2500; call read_file with offset_line=2001 to read on]"},
		{"byte cap stops at a whole line", `{"path":"wide.txt"}`,
			strings.TrimSuffix(wide[:100*1000], "\n") + "\n[lines 1-100 of 150; call read_file with offset_line=101 to read on]"},
		{"overlong line is cut", `{"path":"long.txt"}`,
			long[:maxReadBytes] + "\n[line 1 is longer than 100000 bytes and was cut; call read_file with offset_line=2 to read the lines after it]"},
		{"empty file", `{"path":"empty.txt"}`, "(empty.txt is empty)"},
		{"invalid UTF-8 replaced", `{"path":"latin1.txt"}`, "caf\uFFFD\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := mustCall(t, ws, "read_file", c.args); got != c.want {
				t.Errorf("read_file(%.80s) =\n%.300q\nwant\n%.300q", c.args, got, c.want)
			}
		})
	}
}

func TestReadFile_Refusals(t *testing.T) {
	ws := newWorkspace(t, map[string]string{
		"ten.txt":   numbered(10),
		"image.png": "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
		"docs/x.md": "x",
	})
	cases := []struct {
		name, args, want string
	}{
		{"missing file", `{"path":"a.txt"}`, "no such file a.txt in the workspace; call list_files to see what exists"},
		{"missing directory", `{"path":"nope/a.txt"}`, "no such file nope/a.txt in the workspace; call list_files to see what exists"},
		{"binary", `{"path":"image.png"}`, "image.png is a binary file (16 bytes); read_file reads text files only"},
		{"directory", `{"path":"docs"}`, "docs is a directory, not a file; call list_files with path docs to see what it holds"},
		{"file as a directory", `{"path":"ten.txt/x"}`, "ten.txt/x: a part of the path is a file, not a directory"},
		{"offset past the end", `{"path":"ten.txt","offset_line":11}`, "ten.txt has only 10 lines; call read_file with an offset_line of at most 10"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := call(t, ws, "read_file", c.args)
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("read_file(%s) = %q, %v; want an error starting %q", c.args, out, err, c.want)
			}
		})
	}
}
