package remote_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/i18n"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runner"
)

// newVaultOwner is newOwner with [obsidian] vault set to a vault of two
// notes, Plan.md and Week.md that links to it, and writes allowed.
func newVaultOwner(t *testing.T, srv *llmtest.Server) (*owner, string) {
	t.Helper()
	vault := t.TempDir()
	if err := os.WriteFile(filepath.Join(vault, "Plan.md"), []byte("# Plan\n\nShip it.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(vault, "Week.md"), []byte("See [[Plan]].\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	more := fmt.Sprintf("\n[obsidian]\nvault = %q\n\n[tools.risk]\nwrite = \"allow\"\n", vault)
	return newOwnerOf(t, srv, more, runner.Options{Toolkit: runner.OpenToolkit}), vault
}

// A process attached to the owner sees a run's vault edit, undoes it in
// the owner's vault, is refused a second undo with the owner's reason in
// both languages, and reads a note of the vault by wikilink.
func TestClient_UndoesAVaultEditInTheOwner(t *testing.T) {
	o, vault := newVaultOwner(t, llmtest.NewServer(t,
		llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "e1", Name: "append_note", Arguments: `{"note":"Plan","content":"Done."}`}}},
		llmtest.Step{Content: "Appended."},
	))
	c := dial(t, o)
	id, err := c.Start(t.Context(), runner.StartRequest{Task: "close the plan"})
	if err != nil {
		t.Fatal(err)
	}
	w, err := c.Watch(id, 0)
	if err != nil {
		t.Fatal(err)
	}
	drain(w)
	plan := filepath.Join(vault, "Plan.md")
	if b, _ := os.ReadFile(plan); !strings.Contains(string(b), "Done.") {
		t.Fatalf("the edit: %q", b)
	}
	e, err := c.VaultEdit(id, "e1")
	if err != nil || !strings.Contains(string(e.Change), `"path":"Plan.md"`) || e.UndoneAt != "" {
		t.Fatalf("VaultEdit: %+v, %v", e, err)
	}
	if e, err = c.UndoVaultEdit(id, "e1"); err != nil || e.UndoneAt == "" {
		t.Fatalf("UndoVaultEdit: %+v, %v", e, err)
	}
	if b, _ := os.ReadFile(plan); string(b) != "# Plan\n\nShip it.\n" {
		t.Errorf("after the undo: %q", b)
	}
	_, err = c.UndoVaultEdit(id, "e1")
	if ae := runner.Explain(err); ae.Code != "undo_refused" || !strings.Contains(ae.Message[string(i18n.ZH)], "已经撤销") {
		t.Errorf("a second undo: %+v", ae)
	}
	n, err := c.VaultNote(id, "[[Plan]]", "Week.md")
	if err != nil || n.Path != "Plan.md" || len(n.Backlinks) != 1 || n.Backlinks[0].From != "Week.md" {
		t.Errorf("VaultNote: %+v, %v", n, err)
	}
}
