package toolbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestListFiles(t *testing.T) {
	ws := newWorkspace(t, map[string]string{
		"README.md":           "hello",
		"docs/a.md":           "aaa",
		"docs/deep/b.md":      "bb",
		"docs-old/":           "",
		"empty/":              "",
		".git/HEAD":           "ref",
		"node_modules/x/i.js": "1",
	})
	if err := os.Symlink("README.md", filepath.Join(ws, "readme-link")); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, args, want string
	}{
		{"root", `{}`, "7 entries in the workspace root:\n" +
			".git/\nREADME.md (5 bytes)\ndocs/\ndocs-old/\nempty/\nnode_modules/\nreadme-link -> README.md (symbolic link)"},
		{"subdirectory", `{"path":"docs"}`, "2 entries in docs:\ndocs/a.md (3 bytes)\ndocs/deep/"},
		{"recursive", `{"path":"docs","recursive":true}`, "3 entries in docs:\ndocs/a.md (3 bytes)\ndocs/deep/\ndocs/deep/b.md (2 bytes)"},
		{"recursive root leaves .git and node_modules closed", `{"recursive":"true"}`, "10 entries in the workspace root:\n" +
			".git/ (not expanded)\nREADME.md (5 bytes)\ndocs/\ndocs/a.md (3 bytes)\ndocs/deep/\ndocs/deep/b.md (2 bytes)\ndocs-old/\nempty/\nnode_modules/ (not expanded)\nreadme-link -> README.md (symbolic link)"},
		{"empty directory", `{"path":"empty/"}`, "empty/ is empty."},
		{"a file", `{"path":"docs/a.md"}`, "docs/a.md is a file, not a directory:\ndocs/a.md (3 bytes)"},
		{"dot-dot that stays inside", `{"path":"docs/deep/../.."}`, "7 entries in the workspace root:"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := mustCall(t, ws, "list_files", c.args)
			if !strings.HasPrefix(got, c.want) {
				t.Errorf("list_files(%s) =\n%s\nwant\n%s", c.args, got, c.want)
			}
		})
	}
}

func TestListFiles_Missing(t *testing.T) {
	ws := newWorkspace(t, nil)
	_, err := call(t, ws, "list_files", `{"path":"nope"}`)
	if err == nil || err.Error() != "no such directory nope in the workspace; call list_files to see what exists" {
		t.Errorf("err = %v", err)
	}
}

func TestListFiles_Cap(t *testing.T) {
	files := map[string]string{}
	for i := range maxListEntries + 5 {
		files[fmt.Sprintf("f%04d.txt", i)] = ""
	}
	ws := newWorkspace(t, files)
	got := mustCall(t, ws, "list_files", `{}`)
	lines := strings.Split(got, "\n")
	if len(lines) != maxListEntries+2 {
		t.Fatalf("%d lines, want a header, %d entries and a note", len(lines), maxListEntries)
	}
	if lines[0] != "1005 entries in the workspace root:" || lines[maxListEntries] != "f0999.txt (0 bytes)" {
		t.Errorf("header %q, last entry %q", lines[0], lines[maxListEntries])
	}
	if note := lines[len(lines)-1]; note != "… 5 more entries not shown; list a subdirectory to see them." {
		t.Errorf("note = %q", note)
	}
}
