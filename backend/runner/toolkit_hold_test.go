package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/agent"
	"hermes/backend/config"
	"hermes/backend/toolbox"
)

// searchNotes calls search_notes through the registry a run was given.
func searchNotes(t *testing.T, reg *toolbox.Registry) (string, error) {
	t.Helper()
	tool, ok := reg.Get("search_notes")
	if !ok {
		t.Fatal("the registry has no search_notes")
	}
	return tool.Run(t.Context(), toolbox.Env{}, []byte(`{"query":"budget"}`))
}

// TestToolkit_ReplacedVaultStaysForTheRunsHoldingIt: a vault an edit takes
// away stays open for a run that was given it until that run ends; then it
// is closed, and the next run has no vault tools.
func TestToolkit_ReplacedVaultStaysForTheRunsHoldingIt(t *testing.T) {
	home, vault := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(vault, "Budget.md"), []byte("# Budget\n\nThe budget is 300 euros.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	withVault := config.Config{Obsidian: config.Obsidian{Vault: vault}}
	k, err := OpenToolkit(t.Context(), home, withVault, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(k.Close)
	var going agent.Setup
	k.Apply(&going)
	release := k.Hold(going.Tools)

	if err := k.Configure(t.Context(), config.Config{}); err != nil {
		t.Fatal(err)
	}
	var next agent.Setup
	k.Apply(&next)
	if _, ok := next.Tools.Get("search_notes"); ok {
		t.Fatal("a run started after the vault was taken away has search_notes")
	}
	if out, err := searchNotes(t, going.Tools); err != nil || !strings.Contains(out, "Budget.md") {
		t.Fatalf("the run going through the edit: %q, %v", out, err)
	}
	release()
	release() // a second release changes nothing
	if out, err := searchNotes(t, going.Tools); err == nil {
		t.Fatalf("the vault is still open once its last run ended: %q", out)
	}
}
