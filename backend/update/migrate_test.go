package update

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// A migration killed half-way leaves its backup; the next start must
// migrate from the files as they were, and a rollback restore them.
func TestMigrate_AfterAKillHalfWay(t *testing.T) {
	home := t.TempDir()
	data := filepath.Join(home, "data.txt")
	writeFile(t, data, "original\n")
	appendLine := func(_ context.Context, home string) error {
		f, err := os.OpenFile(data, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = f.WriteString("migrated\n")
		return err
	}
	files := func(string) []string { return []string{data} }
	killed := Migration{Name: "data", Files: files, Run: func(ctx context.Context, home string) error {
		// What it wrote, or not, the kill below decides nothing.
		_ = appendLine(ctx, home)
		panic("killed") // the process dies here: no restore, no record
	}}
	func() {
		defer func() { _ = recover() }()
		_ = migrate(t.Context(), home, "1.1.0", []Migration{killed}) // it panics
	}()
	if err := migrate(t.Context(), home, "1.1.0", []Migration{{Name: "data", Files: files, Run: appendLine}}); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, data); got != "original\nmigrated\n" {
		t.Fatalf("after the second start: %q", got)
	}
	if err := restoreBackup(home, "1.1.0"); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, data); got != "original\n" {
		t.Fatalf("rollback restored %q", got)
	}
}
