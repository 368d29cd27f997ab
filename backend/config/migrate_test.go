package config

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func TestTextDoc_Edits(t *testing.T) {
	const src = `# my settings
version = 1

# the loop
[agent]
max_iterations = 40 # mine
# where the files are
workspace = 'C:\notes'

[model]
model = "qwen"
args = [
  "a",
  "b",
]
`
	tests := []struct {
		name string
		edit func(*textDoc) error
		want string
	}{
		{"set in place keeps the key as written", func(d *textDoc) error { return d.Set("agent.max_iterations", 50) },
			strings.Replace(src, "max_iterations = 40 # mine", "max_iterations = 50", 1)},
		{"set a new key at the end of its table", func(d *textDoc) error { return d.Set("agent.mode", "bot") },
			strings.Replace(src, "workspace = 'C:\\notes'\n", "workspace = 'C:\\notes'\nmode = \"bot\"\n", 1)},
		{"set a key of a new table", func(d *textDoc) error { return d.Set("bot.listen", ":8080") },
			src[:len(src)-1] + "\n\n[bot]\nlisten = \":8080\"\n"},
		{"set a multi-line value", func(d *textDoc) error { return d.Set("model.args", []string{"c"}) },
			strings.Replace(src, "args = [\n  \"a\",\n  \"b\",\n]", "args = [\"c\"]", 1)},
		{"rename in place", func(d *textDoc) error { return d.Rename("agent.workspace", "agent.root") },
			strings.Replace(src, "workspace = 'C:\\notes'", "root = 'C:\\notes'", 1)},
		{"move to another table with its comment", func(d *textDoc) error { return d.Rename("agent.workspace", "model.workspace") },
			strings.Replace(strings.Replace(src, "# where the files are\nworkspace = 'C:\\notes'\n", "", 1),
				"  \"b\",\n]\n", "  \"b\",\n]\n# where the files are\nworkspace = 'C:\\notes'\n", 1)},
		{"rename a key that is not written", func(d *textDoc) error { return d.Rename("agent.colour", "agent.color") }, src},
		{"delete with its comment", func(d *textDoc) error { return d.Delete("agent.workspace") },
			strings.Replace(src, "# where the files are\nworkspace = 'C:\\notes'\n", "", 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newTextDoc(src)
			if err := tt.edit(d); err != nil {
				t.Fatal(err)
			}
			if got := d.String(); got != tt.want {
				t.Fatalf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
	if err := newTextDoc(src).Rename("agent.workspace", "model.model"); err == nil {
		t.Error("a rename onto a key that is set must fail, not lose a value")
	}
}

// testSteps are migrations that exist only in tests, since version 1 is the
// first layout: 1 → 2 moves [agent] workspace to [workspace] dir, 2 → 3
// renames [model] model to [model] name.
var testSteps = []migration{
	{from: 1, apply: func(d *textDoc) error { return d.Rename("agent.workspace", "workspace.dir") }},
	{from: 2, apply: func(d *textDoc) error { return d.Rename("model.model", "model.name") }},
}

func TestMigrate_UpgradesWithBackup(t *testing.T) {
	const v1 = "# mine\n[agent]\n# my notes\nworkspace = '/notes'\n\n[model]\nmodel = \"qwen\" \n"
	path := writeConfig(t, v1)
	up, err := migrateFile(path, testSteps)
	if err != nil {
		t.Fatal(err)
	}
	if up.From != 1 || up.To != 3 || up.Backup != path+".v1.bak" {
		t.Fatalf("upgrade = %+v", up)
	}
	if b, _ := os.ReadFile(up.Backup); string(b) != v1 {
		t.Fatalf("backup holds %q, want the original", b)
	}
	got, _ := os.ReadFile(path)
	want := "version = 3\n# mine\n[agent]\n\n[model]\nname = \"qwen\" \n\n[workspace]\n# my notes\ndir = '/notes'\n"
	if string(got) != want {
		t.Fatalf("upgraded file:\n%s\nwant:\n%s", got, want)
	}
	again, err := migrateFile(path, testSteps)
	if err != nil || again.From != 3 || again.To != 3 || again.Backup != "" {
		t.Fatalf("a second start upgraded again: %+v %v", again, err)
	}
}

func TestMigrate_KeepsModeAndLeavesOnlyFileAndBackup(t *testing.T) {
	path := writeConfig(t, "[model]\nmodel = \"qwen\"\n")
	if err := os.Chmod(path, 0o640); err != nil {
		t.Fatal(err)
	}
	if _, err := migrateFile(path, testSteps); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(path); runtime.GOOS != "windows" && st.Mode().Perm() != 0o640 {
		t.Fatalf("mode %v after the upgrade, want the file's own 0640", st.Mode().Perm())
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{"hermes.toml", "hermes.toml.v1.bak"}; !slices.Equal(names, want) {
		t.Fatalf("the directory holds %v, want %v", names, want)
	}
}

func TestMigrate_FromAMiddleVersion(t *testing.T) {
	path := writeConfig(t, "version = 2\n[model]\nmodel = \"qwen\"\n")
	up, err := migrateFile(path, testSteps)
	if err != nil || up.From != 2 || up.Backup != path+".v2.bak" {
		t.Fatalf("upgrade = %+v, %v", up, err)
	}
	if got, _ := os.ReadFile(path); string(got) != "version = 3\n[model]\nname = \"qwen\"\n" {
		t.Fatalf("upgraded file: %s", got)
	}
}

func TestMigrate_FailureLeavesTheFile(t *testing.T) {
	const v1 = "[agent]\nworkspace = '/a'\n[workspace]\ndir = '/b'\n"
	path := writeConfig(t, v1)
	_, err := migrateFile(path, testSteps)
	if !errors.Is(err, ErrMigrate) || !strings.Contains(err.Error(), "from version 1 to 2") {
		t.Fatalf("err = %v, want ErrMigrate naming the step", err)
	}
	if got, _ := os.ReadFile(path); string(got) != v1 {
		t.Fatalf("the file changed: %s", got)
	}
	if backups, _ := filepath.Glob(path + "*.bak"); len(backups) != 0 {
		t.Fatalf("a backup was left for a migration that did not happen: %v", backups)
	}
}

func TestMigrate_CurrentNewerAndMissing(t *testing.T) {
	for _, src := range []string{"version = 1\n", "version = 9\n", "[agent]\nmax_iterations = 3\n"} {
		path := writeConfig(t, src)
		up, err := Migrate(path)
		if err != nil || up.Backup != "" {
			t.Fatalf("%q: %+v %v", src, up, err)
		}
		if got, _ := os.ReadFile(path); string(got) != src {
			t.Fatalf("%q was rewritten as %q", src, got)
		}
	}
	up, err := Migrate(filepath.Join(t.TempDir(), "hermes.toml"))
	if err != nil || up.From != Version || up.To != Version {
		t.Fatalf("missing file: %+v %v", up, err)
	}
}

func TestMigrations_FormAChainToVersion(t *testing.T) {
	if len(migrations) != Version-1 {
		t.Fatalf("%d migrations for version %d: every older version needs one", len(migrations), Version)
	}
	for i, m := range migrations {
		if m.from != i+1 {
			t.Errorf("migrations[%d] starts at version %d, want %d", i, m.from, i+1)
		}
	}
}
