package config

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"hermes/backend/i18n"
)

func TestInit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "home", "hermes.toml")
	backup, err := Init(path, i18n.ZH, false)
	if err != nil || backup != "" {
		t.Fatalf("first init: %q %v", backup, err)
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != string(DefaultFile(i18n.ZH)) {
		t.Fatalf("wrote %q, %v", got, err)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v: the file may hold secrets, want 0600", st.Mode().Perm())
	}

	mine := []byte("[agent]\nmax_iterations = 7\n")
	if err := os.WriteFile(path, mine, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Init(path, i18n.EN, false); !errors.Is(err, ErrExists) {
		t.Fatalf("init over a file without --force: %v, want ErrExists", err)
	}
	if got, _ := os.ReadFile(path); string(got) != string(mine) {
		t.Fatal("init without --force changed the file")
	}
	for _, wantBackup := range []string{path + ".bak", path + ".1.bak"} {
		backup, err := Init(path, i18n.EN, true)
		if err != nil || backup != wantBackup {
			t.Fatalf("forced init: backup %q, %v; want %s", backup, err, wantBackup)
		}
	}
	if got, _ := os.ReadFile(path + ".bak"); string(got) != string(mine) {
		t.Fatalf("the first backup holds %q, want the user's file", got)
	}
	if got, _ := os.ReadFile(path); string(got) != string(DefaultFile(i18n.EN)) {
		t.Fatal("forced init did not write the default")
	}
}
