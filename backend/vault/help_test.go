package vault

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// helpVaultDir is where scripts/setup.sh puts Obsidian's own help vault
// (its English and Chinese notes at a fixed commit), from this package.
const helpVaultDir = "../../.cache/obsidian-help"

// helpVault copies the help vault of lang ("en" or "zh") into a temporary
// folder, since the tests write to it. Without it (scripts/setup.sh not
// run) the test is skipped, and fails in CI.
func helpVault(t testing.TB, lang string) testVault {
	t.Helper()
	src := filepath.Join(helpVaultDir, lang)
	if dir := os.Getenv("HERMES_HELP_VAULT"); dir != "" {
		src = filepath.Join(dir, lang)
	}
	if _, err := os.Stat(src); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("Obsidian's help vault is not in %s: scripts/setup.sh fetches it", src)
		}
		t.Skipf("Obsidian's help vault is not in %s: run scripts/setup.sh, which fetches it", src)
	}
	tv := testVault{dir: t.TempDir(), home: t.TempDir()}
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(tv.dir, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(tv.dir, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return tv
}

// helpNotes are the paths of every note of a help vault, from its root.
func helpNotes(t testing.TB, tv testVault) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(tv.dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && isNote(p) {
			rel, _ := filepath.Rel(tv.dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
