package vault

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/i18n"
	"hermes/backend/runlog"
	"hermes/backend/toolbox"
)

// snapshot is every file of a vault, by path.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Type()&os.ModeSymlink != 0 {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameFiles(t *testing.T, want, got map[string]string) {
	t.Helper()
	for p, w := range want {
		if g, ok := got[p]; !ok {
			t.Errorf("%s is gone", p)
		} else if g != w {
			t.Errorf("%s differs:\n%s", p, lineDiff(w, g))
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			t.Errorf("%s was not there", p)
		}
	}
}

// changeOf reads the change a call kept with its run.
func changeOf(t *testing.T, home, ref string) *Change {
	t.Helper()
	raw, _, err := runlog.ReadArtifact(home, ref, 0, 0)
	var c Change
	if err != nil || json.Unmarshal(raw, &c) != nil {
		t.Fatalf("%s: %v", ref, err)
	}
	return &c
}

// Each edit, undone, leaves the vault as it was: a rename as one (every
// note whose links it changed, and the note moved back), a folder moved,
// a property, a section, a created note.
func TestUndo_PutsTheVaultBack(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		t.Run(lang, func(t *testing.T) {
			tv := helpVault(t, lang)
			v := tv.open(t, false)
			rc := renameCases[0]
			if lang == "zh" {
				rc = renameCases[1]
			}
			folder := filepathDir(rc.path)
			calls := []struct{ tool, args string }{
				{"rename_note", `{"path":` + quote(rc.path) + `,"new_path":` + quote(rc.newPath) + `}`},
				{"rename_note", `{"path":` + quote(folder) + `,"new_path":"Moved/` + folder + `"}`},
				{"set_property", `{"path":` + quote(rc.path) + `,"name":"status","value":"done"}`},
				{"edit_note", `{"path":` + quote(rc.path) + `,"heading":` + quote(rc.heading) + `,"mode":"replace","content":"x"}`},
				{"create_note", `{"path":"新的/Note","content":"[[` + noteName(rc.path) + `]]"}`},
				{"daily_note", `{}`},
				{"append_note", `{"note":` + quote(rc.path) + `,"content":"end"}`},
			}
			for i, c := range calls {
				before := snapshot(t, tv.dir)
				env := toolbox.Env{Home: tv.home, RunID: "run1", CallID: "u" + string(rune('0'+i))}
				if _, err := call(t, v, env, c.tool, c.args); err != nil {
					t.Fatalf("%s: %v", c.tool, err)
				}
				if after := snapshot(t, tv.dir); len(after) == len(before) && c.tool != "create_note" && c.tool != "daily_note" {
					changed := false
					for p := range after {
						changed = changed || after[p] != before[p]
					}
					if !changed {
						t.Fatalf("%s changed nothing", c.tool)
					}
				}
				if err := v.Undo(tv.home, changeOf(t, tv.home, "artifacts/run1/"+env.CallID+".change.json")); err != nil {
					t.Fatalf("undo %s: %v", c.tool, err)
				}
				sameFiles(t, before, snapshot(t, tv.dir))
			}
			if _, ok := v.Note(rc.path); !ok {
				t.Errorf("the index lost %s", rc.path)
			}
			if got := len(v.Backlinks(rc.path)); got < 10 {
				t.Errorf("%d backlinks to %s after the undos", got, rc.path)
			}
		})
	}
}

func filepathDir(p string) string { return p[:strings.LastIndex(p, "/")] }

// Undo refuses, changing nothing, when a note changed after the edit.
func TestUndo_RefusesANoteChangedSince(t *testing.T) {
	tv := makeVault(t)
	v := tv.open(t, false)
	env := toolbox.Env{Home: tv.home, RunID: "run1", CallID: "c1"}
	mustCallEnv(t, v, env, "rename_note", `{"path":"Projects/Alpha.md","new_path":"Projects/Alpha 2.md"}`)
	c := changeOf(t, tv.home, "artifacts/run1/c1.change.json")
	if len(c.Notes) < 3 {
		t.Fatalf("the rename changed %d notes, want Alpha and the two that link to it: %+v", len(c.Notes), c.Notes)
	}
	write(t, filepath.Join(tv.dir, "Projects", "Beta.md"), []byte("edited in Obsidian since\n"))
	before := snapshot(t, tv.dir)
	err := v.Undo(tv.home, c)
	var ie *i18n.Error
	if err == nil || !strings.Contains(err.Error(), "Projects/Beta.md changed after the edit") || !errors.As(err, &ie) {
		t.Fatalf("undo over a changed note: %v", err)
	}
	if i18n.In(i18n.ZH, ie.Key, ie.Args...) == ie.Error() {
		t.Error("the refusal has no Chinese text")
	}
	sameFiles(t, before, snapshot(t, tv.dir))
}

func mustCallEnv(t *testing.T, v *Vault, env toolbox.Env, name, args string) string {
	t.Helper()
	out, err := call(t, v, env, name, args)
	if err != nil {
		t.Fatalf("%s %s: %v", name, args, err)
	}
	return out
}

// Preview works out the change a call would make, for the approval
// dialog, and writes nothing.
func TestPreview(t *testing.T) {
	tv := makeVault(t)
	v := tv.open(t, false)
	before := snapshot(t, tv.dir)
	c, err := v.Preview("set_property", json.RawMessage(`{"path":"Welcome","name":"status","value":"doing"}`))
	if err != nil || len(c.Notes) != 1 || len(c.Notes[0].Properties) != 1 {
		t.Fatalf("set_property: %+v, %v", c, err)
	}
	if pc := c.Notes[0].Properties[0]; pc.Name != "status" || pc.Before != "done" || pc.After != "doing" {
		t.Errorf("the property change: %+v", pc)
	}
	c, err = v.Preview("rename_note", json.RawMessage(`{"path":"Projects/Alpha.md","new_path":"Alpha 2"}`))
	if err != nil || len(c.Notes) < 3 {
		t.Fatalf("rename_note: %+v, %v", c, err)
	}
	links := 0
	for _, n := range c.Notes {
		links += len(n.Links)
		for _, l := range n.Links {
			if !strings.Contains(l.After, "Alpha 2") && !strings.Contains(l.After, "Alpha%202") {
				t.Errorf("a link change: %+v", l)
			}
		}
	}
	if links < 3 {
		t.Errorf("%d links changed, want 3", links)
	}
	c, err = v.Preview("edit_note", json.RawMessage(`{"path":"Projects/Alpha.md","heading":"Goals","mode":"append","content":"### New\n[[Beta]]"}`))
	if err != nil || len(c.Notes[0].SectionsAdded) != 1 || c.Notes[0].Links[0].After != "[[Beta]]" || len(c.Notes[0].Hunks) != 1 {
		t.Errorf("edit_note: %+v, %v", c, err)
	}
	if c, err := v.Preview("search_notes", json.RawMessage(`{"query":"x"}`)); c != nil || err != nil {
		t.Errorf("a tool that writes nothing: %+v, %v", c, err)
	}
	if _, err := v.Preview("edit_note", json.RawMessage(`{"path":"Projects/Alpha.md","heading":"Nope","mode":"append","content":"x"}`)); err == nil {
		t.Error("a call that would fail previews")
	}
	// The tools that write carry the preview, for the approval; those
	// that read do not.
	for _, tool := range Tools(v) {
		if (tool.Preview != nil) != (tool.Risk == toolbox.RiskWrite) {
			t.Errorf("%s: preview %v, risk %s", tool.Name, tool.Preview != nil, tool.Risk)
		}
		if tool.Name == "set_property" {
			raw, err := tool.Preview(json.RawMessage(`{"path":"Welcome","name":"status","value":"doing"}`))
			if err != nil || !strings.Contains(string(raw), `"properties":[{"name":"status","before":"done","after":"doing"}]`) {
				t.Errorf("set_property's preview: %s, %v", raw, err)
			}
		}
	}
	sameFiles(t, before, snapshot(t, tv.dir))
}
