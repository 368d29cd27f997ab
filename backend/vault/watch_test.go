package vault

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// waitFor waits for the watcher to report that path was indexed again.
func waitFor(t *testing.T, updates <-chan []string, path string) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case paths := <-updates:
			if slices.Contains(paths, path) {
				return
			}
		case <-deadline:
			t.Fatalf("the watcher never reported %s", path)
		}
	}
}

func TestWatcher_PicksUpChanges(t *testing.T) {
	tv := makeVault(t)
	v := tv.open(t, true)
	updates, stop := v.Subscribe()
	defer stop()
	search := func(q string) string { return mustCall(t, v, "search_notes", `{"query":"`+q+`"}`) }

	// An editor's save: write a temporary file, rename it over the note.
	start := time.Now()
	tmp := filepath.Join(tv.dir, "Projects", ".Beta.md.swp")
	write(t, tmp, []byte("Beta now talks about giraffes.\n"))
	if err := os.Rename(tmp, filepath.Join(tv.dir, "Projects", "Beta.md")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, updates, "Projects/Beta.md")
	if d := time.Since(start); d > time.Second {
		t.Errorf("the change took %v to be indexed, more than a second", d)
	}
	if out := search("giraffes"); !strings.Contains(out, "Projects/Beta.md") {
		t.Errorf("the saved note is not found:\n%s", out)
	}

	// A new folder with a note, made in one go.
	write(t, filepath.Join(tv.dir, "New", "Deep", "Okapi.md"), []byte("About okapis.\n"))
	waitFor(t, updates, "New/Deep/Okapi.md")
	if out := search("okapis"); !strings.Contains(out, "New/Deep/Okapi.md") {
		t.Errorf("a note in a new folder is not found:\n%s", out)
	}
	// ... and a note added to it later, through the watch on the new folder.
	write(t, filepath.Join(tv.dir, "New", "Deep", "Tapir.md"), []byte("About tapirs.\n"))
	waitFor(t, updates, "New/Deep/Tapir.md")

	// Deleted and renamed away.
	if err := os.Remove(filepath.Join(tv.dir, "bom.md")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, updates, "bom.md")
	if out := search("wombats"); !strings.Contains(out, "No note matches") {
		t.Errorf("a deleted note is still found:\n%s", out)
	}
	if err := os.Rename(filepath.Join(tv.dir, "New"), filepath.Join(tv.dir, "Old")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, updates, "Old/Deep/Okapi.md")
	if _, ok := v.Note("New/Deep/Okapi.md"); ok {
		t.Error("the note under the renamed folder keeps its old path")
	}

	// Decoys written while watching stay out.
	write(t, filepath.Join(tv.dir, ".obsidian", "new.md"), []byte(decoy+"\n"))
	write(t, filepath.Join(tv.dir, "marker.md"), []byte("marker\n"))
	waitFor(t, updates, "marker.md")
	if out := search(decoy); !strings.Contains(out, "No note matches") {
		t.Errorf("a decoy was indexed:\n%s", out)
	}
}

func TestIndex_PersistsAndRebuilds(t *testing.T) {
	tv := makeVault(t)
	v, err := Open(tv.dir, Options{Home: tv.home})
	if err != nil {
		t.Fatal(err)
	}
	n := v.Len()
	if err := v.Close(); err != nil {
		t.Fatal(err)
	}
	indexFile := filepath.Join(v.IndexDir(), "index.bin")
	if fi, err := os.Stat(indexFile); err != nil || fi.Size() == 0 {
		t.Fatalf("no index saved: %v", err)
	}

	// Changed while Hermes was not running.
	write(t, filepath.Join(tv.dir, "Later.md"), []byte("Written while closed: lemurs.\n"))
	if err := os.Remove(filepath.Join(tv.dir, "utf16be.md")); err != nil {
		t.Fatal(err)
	}
	v = tv.open(t, false)
	if v.Len() != n {
		t.Errorf("%d notes after reopening, want %d", v.Len(), n)
	}
	if out := mustCall(t, v, "search_notes", `{"query":"lemurs kangaroos"}`); !strings.Contains(out, "1 note matches") || !strings.Contains(out, "Later.md") {
		t.Errorf("changes made while closed were not picked up:\n%s", out)
	}
	v.Close()

	for name, damage := range map[string]func() error{
		"corrupt": func() error { return os.WriteFile(indexFile, []byte("garbage"), 0o600) },
		"missing": func() error { return os.RemoveAll(filepath.Dir(indexFile)) },
	} {
		if err := damage(); err != nil {
			t.Fatal(err)
		}
		v := tv.open(t, false)
		if out := mustCall(t, v, "search_notes", `{"query":"lemurs"}`); !strings.Contains(out, "Later.md") {
			t.Errorf("%s index was not rebuilt:\n%s", name, out)
		}
		v.Close()
	}
}
