package update

import (
	"os"
	"path/filepath"
	"testing"
)

// The copy of the home for a health check holds the registered files, each
// copied by its own Copy when it has one, and the record of the migrations.
func TestCopyHome(t *testing.T) {
	RegisterCheckFile(CheckFile{Name: "store.db", Copy: func(src, dst string) error {
		return os.WriteFile(dst, []byte("a snapshot of "+readFile(t, src)), 0o600)
	}})
	RegisterCheckFile(CheckFile{Name: "absent.toml"})
	home := t.TempDir()
	writeFile(t, filepath.Join(home, "data.txt"), "data")
	writeFile(t, filepath.Join(home, "store.db"), "the store")
	writeFile(t, filepath.Join(home, "private.key"), "not for the check")
	if err := os.MkdirAll(filepath.Join(home, "updates"), 0o700); err != nil {
		t.Fatal(err)
	}
	writeFile(t, migratedPath(home), `{"version":"1.0.0"}`)
	u := newUpdater(t, filepath.Join(t.TempDir(), "hermes"), home, "", "1.0.0")

	dir := t.TempDir()
	if err := u.copyHome(dir); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"data.txt":              "data",
		"store.db":              "a snapshot of the store",
		"updates/migrated.json": `{"version":"1.0.0"}`,
	} {
		if got := readFile(t, filepath.Join(dir, name)); got != want {
			t.Errorf("%s holds %q, want %q", name, got, want)
		}
	}
	for _, name := range []string{"absent.toml", "private.key"} {
		if exists(filepath.Join(dir, name)) {
			t.Errorf("%s was copied", name)
		}
	}
}
