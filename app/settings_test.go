package app_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/config"
	"hermes/backend/runner"
)

func TestApp_SetVault(t *testing.T) {
	home := t.TempDir()
	vault := filepath.Join(t.TempDir(), "Notes")
	if err := os.Mkdir(vault, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(config.Path(home), []byte("# mine\n[agent]\nmax_iterations = 7\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	a := newApp(t, home)
	s, err := a.SetVault(vault)
	if err != nil {
		t.Fatal(err)
	}
	if s.Tools == nil || s.Tools.Vault != vault {
		t.Fatalf("the settings after the save: %+v", s.Tools)
	}
	raw, _ := os.ReadFile(config.Path(home))
	if !strings.HasPrefix(string(raw), "# mine\n[agent]\nmax_iterations = 7\n") {
		t.Fatalf("hermes.toml lost what it held:\n%s", raw)
	}

	_, err = a.SetVault(filepath.Join(vault, "missing"))
	e, ok := err.(runner.APIError)
	if !ok || e.Code != "bad_vault" || !strings.Contains(e.Message["en"], "missing") || e.Message["zh-CN"] == "" {
		t.Fatalf("a missing folder: %v", err)
	}
}
