package vault

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/toolbox"
)

// caseVault is a vault whose never-read folders are spelt in other cases,
// as macOS and Windows treat them: ".OBSIDIAN" is Obsidian's own folder
// there.
func caseVault(t *testing.T) testVault {
	t.Helper()
	tv := testVault{dir: t.TempDir(), home: t.TempDir()}
	for name, text := range map[string]string{
		"Notes/Plan.md":                   "# Plan\n\nA plan about otters.\n",
		".OBSIDIAN/plugins/p/README.md":   decoy,
		".Trash/Deleted.md":               decoy,
		".GIT/notes.md":                   decoy,
		"Node_Modules/pkg/README.md":      decoy,
		"ARCHIVE/Old.md":                  decoy,
		"Notes/Sketch.Excalidraw.MD":      decoy,
		".obsidian./workspace.md":         decoy,
		".obsidian::$INDEX_ALLOCATION.md": decoy,
	} {
		write(t, filepath.Join(tv.dir, name), []byte(text+"\n"))
	}
	return tv
}

func TestExclude_IgnoresCase(t *testing.T) {
	tv := caseVault(t)
	v, err := Open(tv.dir, Options{Home: tv.home, Exclude: []string{"archive", "*.excalidraw.md"}, Watch: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	if _, ok := v.Note("Notes/Plan.md"); !ok {
		t.Fatal("Notes/Plan.md is not indexed")
	}
	if v.Len() != 1 {
		t.Errorf("%d notes indexed, want only Notes/Plan.md", v.Len())
	}
	if out := mustCall(t, v, "search_notes", `{"query":"`+decoy+`"}`); !strings.Contains(out, "No note matches") {
		t.Errorf("a note in an excluded folder was indexed:\n%s", out)
	}
	if out := mustCall(t, v, "list_notes", `{"depth":5}`); strings.Contains(strings.ToLower(out), ".obsidian") || strings.Contains(out, "ARCHIVE") {
		t.Errorf("list_notes shows an excluded folder:\n%s", out)
	}
	for _, p := range []string{".OBSIDIAN/plugins/p/README.md", ".Trash/Deleted.md", ".GIT/notes.md", "Node_Modules/pkg/README.md", "ARCHIVE/Old.md", "Notes/Sketch.Excalidraw.MD", ".obsidian./workspace.md"} {
		if out, err := call(t, v, envNone, "read_note", `{"note":`+quote(p)+`}`); err == nil || !strings.Contains(err.Error(), "never read") {
			t.Errorf("read_note %s: %q, %v; want it refused as never read", p, out, err)
		}
	}

	// Written while watching: still out.
	updates, stop := v.Subscribe()
	defer stop()
	write(t, filepath.Join(tv.dir, ".Obsidian", "new.md"), []byte(decoy+"\n"))
	write(t, filepath.Join(tv.dir, "marker.md"), []byte("marker\n"))
	waitFor(t, updates, "marker.md")
	if out := mustCall(t, v, "search_notes", `{"query":"`+decoy+`"}`); !strings.Contains(out, "No note matches") {
		t.Errorf("a note written into .Obsidian was indexed:\n%s", out)
	}
}

// The note tools write notes and nothing else: no plugin code, no file in
// Obsidian's folder however it is spelt.
func TestWriteTools_OnlyNotes(t *testing.T) {
	tv := caseVault(t)
	v := tv.open(t, false)
	write(t, filepath.Join(tv.dir, "Notes", "data.json"), []byte("{}\n"))
	env := toolbox.Env{Home: tv.home, RunID: "run1", CallID: "call_0"}
	tests := []struct{ tool, args, want string }{
		{"create_note", `{"path":".OBSIDIAN/plugins/evil/main.js","content":"x"}`, "never read"},
		{"create_note", `{"path":".Obsidian/plugins/evil/main.md","content":"x"}`, "never read"},
		{"create_note", `{"path":".obsidian./plugins/evil/main.md","content":"x"}`, "never read"},
		{"create_note", `{"path":".obsidian::$INDEX_ALLOCATION/plugins/evil/main.md","content":"x"}`, "never read"},
		{"create_note", `{"path":"Node_Modules/x.md","content":"x"}`, "never read"},
		{"create_note", `{"path":"Notes/main.js","content":"x"}`, "only creates Markdown notes"},
		{"create_note", `{"path":"Notes/board.canvas","content":"x"}`, "only creates Markdown notes"},
		{"create_note", `{"path":"Notes/Meeting 2024.05.01","content":"x"}`, `"Notes/Meeting 2024.05.01.md"`},
		{"append_note", `{"note":"Notes/data.json","content":"x"}`, "not a Markdown note"},
		{"append_note", `{"note":".OBSIDIAN/plugins/p/README.md","content":"x"}`, "never read"},
	}
	for _, tt := range tests {
		out, err := call(t, v, env, tt.tool, tt.args)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s %s: %q, %v; want a tool result saying %q", tt.tool, tt.args, out, err, tt.want)
		}
	}
	for _, p := range []string{".OBSIDIAN/plugins/evil", ".Obsidian/plugins/evil", ".obsidian./plugins", "Notes/main.js", "Notes/board.canvas", "Notes/Meeting 2024.05.01", "Node_Modules/x.md"} {
		if _, err := os.Lstat(filepath.Join(tv.dir, p)); err == nil {
			t.Errorf("%s was created", p)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(tv.dir, "Notes", "data.json")); string(b) != "{}\n" {
		t.Errorf("data.json changed: %q", b)
	}
	if out, err := call(t, v, env, "create_note", `{"path":"Notes/Loud.MD","content":"x"}`); err != nil || !strings.Contains(out, "created Notes/Loud.MD") {
		t.Errorf("create_note Notes/Loud.MD: %q, %v", out, err)
	}
}
