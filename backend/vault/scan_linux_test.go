package vault

import (
	"cmp"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestListDir_AsRoot: reading folders with getdents finds what os.Root
// finds: the same folders, notes with their stamps and links, and nothing
// never read.
func TestListDir_AsRoot(t *testing.T) {
	tv := makeVault(t)
	write(t, filepath.Join(tv.dir, "Projects", "Deep", "More.MD"), []byte("deeper\n"))
	if err := os.Symlink("Projects", filepath.Join(tv.dir, "linked.md")); err != nil {
		t.Fatal(err)
	}
	v := tv.open(t, false)
	byName := func(a, b dirEntry) int { return cmp.Compare(a.name, b.name) }
	dirs := []string{"."}
	for len(dirs) > 0 {
		dir := dirs[0]
		dirs = dirs[1:]
		got, err := v.listDir(dir)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		want, err := v.listRootDir(dir)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		slices.SortFunc(got, byName)
		slices.SortFunc(want, byName)
		if !slices.Equal(got, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", dir, got, want)
		}
		for _, e := range want {
			if e.kind == entryDir {
				dirs = append(dirs, filepath.ToSlash(filepath.Join(dir, e.name)))
			}
		}
	}
}
