package toolbox

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// escapeFixture is a workspace beside an outside directory, with symlinks
// of every kind that lead out of the workspace.
type escapeFixture struct {
	ws, outside string
}

func newEscapeFixture(t *testing.T) escapeFixture {
	t.Helper()
	ws := newWorkspace(t, map[string]string{"docs/a.md": "inside"})
	outside := t.TempDir()
	if filepath.Dir(ws) != filepath.Dir(outside) {
		t.Fatalf("temp dirs %s and %s do not share a parent", ws, outside)
	}
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	relToSecret, err := filepath.Rel(ws, filepath.Join(outside, "secret.txt"))
	if err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		"out-dir":      outside,                                 // absolute, to a directory outside
		"out-file":     filepath.Join(outside, "secret.txt"),    // absolute, to a file outside
		"out-rel":      relToSecret,                             // relative, ../002/secret.txt
		"dangling":     filepath.Join(outside, "new.txt"),       // absolute, to nothing yet
		"dangling-rel": "../escape-new.txt",                     // relative, to nothing yet
		"chain1":       "chain2",                                // inside → inside → outside
		"chain2":       "out-dir",                               //
		"docs/up":      "../..",                                 // a directory link above the root
		"in-abs":       filepath.Join(ws, "docs"),               // absolute but inside: allowed
		"in-rel":       "docs/../docs",                          // relative and inside: allowed
		"loop1":        "loop2",                                 // a loop
		"loop2":        "loop1",                                 //
		"docs/back":    "../" + filepath.Base(ws) + "/../../..", // out, and far
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(ws, name)); err != nil {
			t.Fatal(err)
		}
	}
	return escapeFixture{ws: ws, outside: outside}
}

func TestConfinement_Escapes(t *testing.T) {
	f := newEscapeFixture(t)
	paths := []string{
		"..",
		"../secret.txt",
		"docs/../../secret.txt",
		filepath.Join(f.outside, "secret.txt"),
		"/etc/passwd",
		f.ws + "/../" + filepath.Base(f.outside) + "/secret.txt",
		"out-dir",
		"out-dir/secret.txt",
		"out-file",
		"out-rel",
		"dangling",
		"dangling-rel",
		"chain1/secret.txt",
		"docs/up/" + filepath.Base(f.outside) + "/secret.txt",
		"docs/back",
		// Passing outside is refused even when the path comes back in, as
		// os.Root does.
		"docs/up/" + filepath.Base(f.ws) + "/docs/a.md",
		"../" + filepath.Base(f.ws) + "/docs/a.md",
	}
	for _, p := range paths {
		for _, tool := range []string{"list_files", "read_file", "write_file"} {
			a := map[string]string{"path": p}
			if tool == "write_file" {
				a["content"] = "pwned"
			}
			args, _ := json.Marshal(a)
			out, err := call(t, f.ws, tool, string(args))
			want := p + " is outside the workspace; use a path inside the workspace"
			if err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("%s(%s) = %.60q, %v; want a refusal", tool, p, out, err)
			}
		}
	}
	if b, err := os.ReadFile(filepath.Join(f.outside, "secret.txt")); err != nil || string(b) != "secret" {
		t.Errorf("the outside file was changed: %q, %v", b, err)
	}
	for _, p := range []string{filepath.Join(f.outside, "new.txt"), filepath.Join(filepath.Dir(f.ws), "escape-new.txt")} {
		if _, err := os.Lstat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("a file was created outside the workspace: %s", p)
		}
	}
}

func TestConfinement_InsideLinksAndOddPaths(t *testing.T) {
	f := newEscapeFixture(t)
	for _, p := range []string{"in-abs/a.md", "in-rel/a.md", f.ws + "/docs/a.md", "./docs//a.md"} {
		args, _ := json.Marshal(map[string]string{"path": p})
		if out := mustCall(t, f.ws, "read_file", string(args)); out != "inside" {
			t.Errorf("read_file(%s) = %q", p, out)
		}
	}
	// A recursive listing shows links but never walks through them.
	listing := mustCall(t, f.ws, "list_files", `{"recursive":true}`)
	if !strings.Contains(listing, "out-dir -> "+f.outside+" (symbolic link)") || strings.Contains(listing, "out-dir/") {
		t.Errorf("recursive listing followed a link out:\n%s", listing)
	}
	cases := []struct{ path, want string }{
		{"loop1", "loop1: too many symbolic links (a link loop); choose another path"},
		{"a\x00b", `the path "a\x00b" contains a NUL byte`},
	}
	for _, c := range cases {
		args, _ := json.Marshal(map[string]string{"path": c.path})
		if _, err := call(t, f.ws, "read_file", string(args)); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("read_file(%q) = %v, want %q", c.path, err, c.want)
		}
	}
}
