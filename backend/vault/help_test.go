package vault

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// helpVaultDir is where scripts/setup.sh puts Obsidian's own help vault
// (its English and Chinese notes at a fixed commit), from this package.
// Fetching it is best-effort (CI reaches no GitHub), so helpFixtureDir
// holds a small vault of our own laid out like it: the same notes, headings
// and block ids the tests name, in both languages.
const (
	helpVaultDir   = "../../.cache/obsidian-help"
	helpFixtureDir = "testdata/helpvault"
)

// helpVaultSource is the folder of lang's help vault: HERMES_HELP_VAULT's
// (a folder holding en and zh, or "off" for the fixture), else Obsidian's
// help vault where it was fetched, else the fixture.
func helpVaultSource(lang string) string {
	switch dir := os.Getenv("HERMES_HELP_VAULT"); dir {
	case "off":
		return filepath.Join(helpFixtureDir, lang)
	case "":
	default:
		return filepath.Join(dir, lang)
	}
	if src := filepath.Join(helpVaultDir, lang); isDir(src) {
		return src
	}
	return filepath.Join(helpFixtureDir, lang)
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// helpVault copies the help vault of lang ("en" or "zh") into a temporary
// folder, since the tests write to it.
func helpVault(t testing.TB, lang string) testVault {
	t.Helper()
	src := helpVaultSource(lang)
	if !isDir(src) {
		t.Fatalf("no help vault in %s: HERMES_HELP_VAULT names a folder that lacks %s", src, lang)
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

// rawFront is a note's front matter as written, the lines between its
// first line "---" and the next "---"; ok is false for a note without. The
// tests count on it what they expect of the vault, apart from the parser
// they test.
func rawFront(text string) (front []string, ok bool) {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	if len(lines) == 0 || strings.TrimRight(lines[0], " ") != "---" {
		return nil, false
	}
	for i, l := range lines[1:] {
		if strings.TrimRight(l, " ") == "---" {
			return lines[1 : i+1], true
		}
	}
	return nil, false
}

// rawKeys are the keys of a front matter's top level, as written.
func rawKeys(front []string) []string {
	var keys []string
	for _, l := range front {
		if k, _, ok := strings.Cut(l, ":"); ok && k != "" && !strings.ContainsAny(k[:1], " \t#-") {
			keys = append(keys, k)
		}
	}
	return keys
}
