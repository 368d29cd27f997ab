package vault

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestConfinement(t *testing.T) {
	tv := makeVault(t)
	v := tv.open(t, false)
	tests := []struct{ note, want string }{
		{"../secret.md", `goes up with ".."`},
		{"Projects/../../x.md", `goes up with ".."`},
		{"/etc/passwd", "is an absolute path"},
		{filepath.Join(tv.outside, "secret.md"), "is an absolute path"},
		{`C:\Users\me\secret.md`, "drive letter"},
		{"c:secret.md", "drive letter"},
		{`\\server\share\secret.md`, "UNC network path"},
		{"//server/share/secret.md", "UNC network path"},
		{"~/secret.md", "home directory"},
		{"a\x00b.md", "NUL byte"},
		{`..\secret.md`, `goes up with ".."`},
		{".obsidian/workspace.md", "never read"},
		{"x/node_modules/pkg/README.md", "never read"},
		{"leak.md", "outside the vault through a symbolic link"},
		{"leakdir/secret.md", "outside the vault through a symbolic link"},
		{"Projects/up.md", "outside the vault through a symbolic link"},
	}
	for _, tt := range tests {
		for _, tool := range []string{"read_note", "append_note"} {
			args := `{"note":` + quote(tt.note) + `,"content":"x"}`
			if tool == "read_note" {
				args = `{"note":` + quote(tt.note) + `}`
			}
			out, err := call(t, v, envNone, tool, args)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%s %q: %q, %v; want an error saying %q", tool, tt.note, out, err, tt.want)
			}
		}
		if _, err := call(t, v, envNone, "create_note", `{"path":`+quote(tt.note)+`,"content":"x"}`); err == nil {
			t.Errorf("create_note %q succeeded", tt.note)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(tv.outside, "secret.md")); string(b) != secret+"\n" {
		t.Errorf("the file outside changed: %q", b)
	}
}

func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte("0123456789abcdef"[r>>4])
			b.WriteByte("0123456789abcdef"[r&15])
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// FuzzVaultPath tries to reach the file outside the vault, or to write
// there, through every tool that takes a path.
func FuzzVaultPath(f *testing.F) {
	for _, seed := range []string{
		"../secret.md", "leak.md", "leakdir/secret.md", "Projects/up.md", "Projects/../leak", "/tmp/x.md",
		`..\..\secret`, "C:/x", `\\?\C:\x`, "a/./../../b", "[[leak]]", "[[../secret]]", "Welcome", "中文/../leakdir/secret",
		"%2e%2e/secret.md", "....//secret.md", "Projects/\x00../leak.md", "leakdir", " ../secret.md",
	} {
		f.Add(seed)
	}
	tv := makeVault(f)
	v := tv.open(f, false)
	before := listTree(f, tv.outside)
	f.Fuzz(func(t *testing.T, p string) {
		for _, c := range []struct{ tool, args string }{
			{"read_note", `{"note":` + quote(p) + `}`},
			{"get_backlinks", `{"note":` + quote(p) + `}`},
			{"list_notes", `{"folder":` + quote(p) + `}`},
			{"search_notes", `{"query":"x","folder":` + quote(p) + `}`},
			{"append_note", `{"note":` + quote(p) + `,"content":"fuzz"}`},
			{"create_note", `{"path":` + quote(p) + `,"content":"fuzz"}`},
		} {
			out, err := call(t, v, envNone, c.tool, c.args)
			if strings.Contains(out, secret) || err != nil && strings.Contains(err.Error(), secret) {
				t.Fatalf("%s %q read the file outside the vault: %q %v", c.tool, p, out, err)
			}
		}
		if after := listTree(t, tv.outside); !slices.Equal(after, before) {
			t.Fatalf("%q changed the directory outside the vault: %q", p, after)
		}
		if b, _ := os.ReadFile(filepath.Join(tv.outside, "secret.md")); string(b) != secret+"\n" {
			t.Fatalf("%q changed the file outside the vault: %q", p, b)
		}
	})
}

func listTree(t testing.TB, dir string) []string {
	var out []string
	if err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		out = append(out, p)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestExcluded_SkipsFoldingOnlyWhereItCannotMatch: the scan's shortcut
// (a name holding a caseless rune such as a Chinese character is never
// folded) answers as folding every name does.
func TestExcluded_SkipsFoldingOnlyWhereItCannotMatch(t *testing.T) {
	v := &Vault{}
	for name, want := range map[string]bool{
		".obsidian": true, ".OBSIDIAN.": true, ".obſidian": true, "node_modules:x": true,
		"NODE_MODULES ": true, ".git": true, ".ßtrash": false, "说.obsidian": false,
		"lantern 说求几 04973.md": false, "Plan.md": false, ".obsİdian": true,
	} {
		if got := v.excluded(name); got != want {
			t.Errorf("excluded(%q) = %v, want %v", name, got, want)
		}
		folded, _, _ := strings.Cut(name, ":")
		folded = fold(strings.TrimRight(folded, ". "))
		if slow := slices.Contains(neverRead, folded); slow != want {
			t.Errorf("fold(%q) = %q: the table is wrong", name, folded)
		}
	}
}
