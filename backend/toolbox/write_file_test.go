package toolbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func readBack(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestWriteFile_CreatesWithParents(t *testing.T) {
	ws := newWorkspace(t, nil)
	got := mustCall(t, ws, "write_file", `{"path":"out/deep/r.md","content":"结果\n"}`)
	if got != "wrote 7 bytes to out/deep/r.md (new file)" {
		t.Errorf("result = %q", got)
	}
	if s := readBack(t, filepath.Join(ws, "out/deep/r.md")); s != "结果\n" {
		t.Errorf("content = %q", s)
	}
}

func TestWriteFile_ReplacesAtomically(t *testing.T) {
	ws := newWorkspace(t, map[string]string{"a.txt": "old content"})
	path := filepath.Join(ws, "a.txt")
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	got := mustCall(t, ws, "write_file", `{"path":"a.txt","content":"new"}`)
	if got != "wrote 3 bytes to a.txt (replaced its previous 11 bytes)" {
		t.Errorf("result = %q", got)
	}
	after, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if readBack(t, path) != "new" {
		t.Errorf("content = %q", readBack(t, path))
	}
	// A new inode shows the file was renamed into place, not rewritten in it.
	if os.SameFile(before, after) {
		t.Errorf("the file was rewritten in place, not replaced by rename")
	}
	if after.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v, want the old 0600 kept", after.Mode().Perm())
	}
	entries, err := os.ReadDir(ws)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("the workspace holds %d entries, want only a.txt (no temp file left)", len(entries))
	}
}

func TestWriteFile_Append(t *testing.T) {
	ws := newWorkspace(t, map[string]string{"log.md": "one\n"})
	got := mustCall(t, ws, "write_file", `{"path":"log.md","content":"two\n","append":true}`)
	if got != "appended 4 bytes to log.md (now 8 bytes)" {
		t.Errorf("result = %q", got)
	}
	if s := readBack(t, filepath.Join(ws, "log.md")); s != "one\ntwo\n" {
		t.Errorf("content = %q", s)
	}
	mustCall(t, ws, "write_file", `{"path":"new.md","content":"first","append":"true"}`)
	if s := readBack(t, filepath.Join(ws, "new.md")); s != "first" {
		t.Errorf("append to a missing file wrote %q", s)
	}
}

func TestWriteFile_ThroughInsideLink(t *testing.T) {
	ws := newWorkspace(t, map[string]string{"real/target.md": "old"})
	if err := os.Symlink("real", filepath.Join(ws, "alias")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(ws, "real", "target.md"), filepath.Join(ws, "abs-link.md")); err != nil {
		t.Fatal(err)
	}
	mustCall(t, ws, "write_file", `{"path":"alias/target.md","content":"via dir link"}`)
	if s := readBack(t, filepath.Join(ws, "real/target.md")); s != "via dir link" {
		t.Errorf("content = %q", s)
	}
	mustCall(t, ws, "write_file", `{"path":"abs-link.md","content":"via absolute link"}`)
	if s := readBack(t, filepath.Join(ws, "real/target.md")); s != "via absolute link" {
		t.Errorf("content = %q", s)
	}
	if fi, err := os.Lstat(filepath.Join(ws, "abs-link.md")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced by a file")
	}
}

func TestWriteFile_Refusals(t *testing.T) {
	ws := newWorkspace(t, map[string]string{"docs/a.md": "a", "f.txt": "f"})
	cases := []struct {
		name, args, want string
	}{
		{"a directory", `{"path":"docs","content":"x"}`, "docs is a directory; give a file path inside it, such as docs/result.md"},
		{"the root", `{"path":".","content":"x"}`, `the path "." names the workspace root`},
		{"below a file", `{"path":"f.txt/new.md","content":"x"}`, "f.txt/new.md: a part of the path is a file, not a directory; call list_files to check the path"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := call(t, ws, "write_file", c.args)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("write_file(%s) = %v, want an error containing %q", c.args, err, c.want)
			}
		})
	}
	if s := readBack(t, filepath.Join(ws, "f.txt")); s != "f" {
		t.Errorf("f.txt changed to %q", s)
	}
}
