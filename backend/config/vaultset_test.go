package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/i18n"
)

func TestSetVault_KeepsTheRestOfTheFile(t *testing.T) {
	dir := t.TempDir()
	vault := filepath.Join(dir, "My Notes")
	if err := os.Mkdir(vault, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "hermes.toml")
	mine := "version = 1\n\n# my model, do not touch\n[model]\nmodel = \"m\" # the small one\n\n[obsidian]\n# notes\nvault = \"/old\"\nexclude = [\"Archive\"]\n"
	if err := os.WriteFile(path, []byte(mine), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := SetVault(path, "  "+vault+" "); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	want := strings.Replace(mine, `vault = "/old"`, "vault = "+tomlString(vault), 1)
	if string(got) != want {
		t.Fatalf("wrote\n%s\nwant\n%s", got, want)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o640 {
		t.Fatalf("mode %v, want the file's own 0640", st.Mode().Perm())
	}
	cfg, err := Load(path)
	if err != nil || cfg.Obsidian.Vault != vault || cfg.Model.Model != "m" {
		t.Fatalf("loaded %+v, %v", cfg.Obsidian, err)
	}

	// "" removes the key, and the vault tools with it.
	if err := SetVault(path, ""); err != nil {
		t.Fatal(err)
	}
	got, _ = os.ReadFile(path)
	if strings.Contains(string(got), "vault =") || !strings.Contains(string(got), "# my model, do not touch") || !strings.Contains(string(got), `exclude = ["Archive"]`) {
		t.Fatalf("after removing the vault:\n%s", got)
	}
}

func TestSetVault_UnderTheCommentedDefault(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "hermes.toml")
	if _, err := Init(path, i18n.EN, false); err != nil {
		t.Fatal(err)
	}
	if err := SetVault(path, dir); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	lines := strings.Split(string(got), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "vault = ") {
			if l != "vault = "+tomlString(dir) || !strings.HasPrefix(lines[i-1], `# vault = ""`) {
				t.Fatalf("the vault went to line %d, after %q: %q", i+1, lines[i-1], l)
			}
			return
		}
	}
	t.Fatalf("no vault written:\n%s", got)
}

func TestSetVault_NoFileWritesTheDefaultWithIt(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "home", "hermes.toml")
	if err := SetVault(path, dir); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(path)
	if err != nil || cfg.Obsidian.Vault != dir {
		t.Fatalf("loaded %+v, %v", cfg.Obsidian, err)
	}
	got, _ := os.ReadFile(path)
	if !strings.Contains(string(got), "# The Obsidian vault the vault tools work on.") {
		t.Fatalf("the default's comments are missing:\n%s", got)
	}
}

func TestSetVault_Refused(t *testing.T) {
	dir := t.TempDir()
	note := filepath.Join(dir, "note.md")
	if err := os.WriteFile(note, []byte("# a note"), 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "hermes.toml")
	for _, v := range []string{note, filepath.Join(dir, "missing"), "notes"} {
		err := SetVault(path, v)
		if !errors.Is(err, ErrBadVault) {
			t.Fatalf("%q: %v, want ErrBadVault", v, err)
		}
		if zh := i18n.MessageIn(i18n.ZH, err); !strings.Contains(zh, "笔记库") {
			t.Fatalf("%q: no Chinese: %s", v, zh)
		}
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a refused vault wrote the file: %v", err)
	}

	// A broken file is left as it is.
	broken := "[model\nmodel = 1\n"
	if err := os.WriteFile(path, []byte(broken), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := SetVault(path, dir); err == nil {
		t.Fatal("set the vault in a file that does not parse")
	}
	if got, _ := os.ReadFile(path); string(got) != broken {
		t.Fatalf("the broken file changed:\n%s", got)
	}
}

// tomlString is s as a TOML basic string.
func tomlString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
