package runner_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/config"
	"hermes/backend/runner"
	"hermes/backend/toolbox"
	"hermes/backend/vault"
)

// TestToolkit_VaultOpensOnFirstUse: a toolkit with a vault offers the vault
// tools without opening it — a saved index that opening would replace (it
// is garbage) is left as it was — and the first call opens it.
func TestToolkit_VaultOpensOnFirstUse(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "Lantern.md"), []byte("# Lantern\n\nA note about a paper lantern.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := vault.Open(dir, vault.Options{Home: home})
	if err != nil {
		t.Fatal(err)
	}
	index := filepath.Join(v.IndexDir(), "index.bin")
	v.Close()
	garbage := []byte("not an index: opening the vault would rebuild this file")
	if err := os.WriteFile(index, garbage, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.Obsidian.Vault = dir

	for _, open := range []func() (*runner.Toolkit, error){
		func() (*runner.Toolkit, error) { return runner.OpenToolkit(t.Context(), home, cfg, nil) },
		func() (*runner.Toolkit, error) { return runner.OpenWatchedToolkit(t.Context(), home, cfg, nil) },
	} {
		kit, err := open()
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := kit.Catalog.Registry().Get("search_notes"); !ok {
			t.Fatal("search_notes is not offered")
		}
		kit.Close()
		if b, _ := os.ReadFile(index); !bytes.Equal(b, garbage) {
			t.Fatal("the vault was opened by a toolkit whose tools were never called")
		}
	}

	kit, err := runner.OpenToolkit(t.Context(), home, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer kit.Close()
	p, err := kit.Catalog.Registry().Prepare("search_notes", `{"query":"lantern"}`)
	if err != nil {
		t.Fatal(err)
	}
	out, err := p.Tool.Run(t.Context(), toolbox.Env{}, p.Args)
	if err != nil || !strings.Contains(out, "Lantern.md") {
		t.Fatalf("search_notes = %q, %v", out, err)
	}
}

// TestToolkit_MissingVaultFailsAtOnce: a vault folder that does not exist
// is still reported when the toolkit opens, not at the first call.
func TestToolkit_MissingVaultFailsAtOnce(t *testing.T) {
	cfg := config.Default()
	cfg.Obsidian.Vault = filepath.Join(t.TempDir(), "nowhere")
	if _, err := runner.OpenToolkit(t.Context(), t.TempDir(), cfg, nil); err == nil {
		t.Fatal("a missing vault was not reported")
	}
}
