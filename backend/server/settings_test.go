package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/api"
	"hermes/backend/config"
	"hermes/backend/llm/llmtest"
)

func TestServer_SetVault(t *testing.T) {
	h := newHarness(t, llmtest.NewServer(t), nil, "# keep this comment\n")
	vault := filepath.Join(t.TempDir(), "Notes")
	if err := os.Mkdir(vault, 0o700); err != nil {
		t.Fatal(err)
	}
	var st api.Settings
	h.call("PUT", "/api/settings/vault", fmt.Sprintf(`{"vault":%q}`, vault), http.StatusOK, &st)
	if st.ConfigPath != filepath.Join(h.home, "hermes.toml") {
		t.Fatalf("the settings after the save: %+v", st)
	}
	raw, err := os.ReadFile(st.ConfigPath)
	if err != nil || !strings.Contains(string(raw), "# keep this comment") {
		t.Fatalf("hermes.toml: %s %v", raw, err)
	}
	if cfg, err := config.Load(st.ConfigPath); err != nil || cfg.Obsidian.Vault != vault {
		t.Fatalf("hermes.toml's vault: %q %v", cfg.Obsidian.Vault, err)
	}

	// A vault that is not a folder is refused, in both languages, and
	// nothing changes.
	body := h.call("PUT", "/api/settings/vault", `{"vault":"relative/notes"}`, http.StatusBadRequest, nil)
	var e errorBody
	if err := json.Unmarshal(body, &e); err != nil || e.Error.Code != "bad_vault" || !strings.Contains(e.Error.Message["en"], "relative") || e.Error.Message["zh-CN"] == "" {
		t.Fatalf("a relative vault: %s", body)
	}
	if again, _ := os.ReadFile(filepath.Join(h.home, "hermes.toml")); string(again) != string(raw) {
		t.Fatalf("a refused vault changed hermes.toml:\n%s", again)
	}

	// "" removes it.
	h.call("PUT", "/api/settings/vault", `{"vault":""}`, http.StatusOK, &st)
	if cfg, err := config.Load(st.ConfigPath); err != nil || cfg.Obsidian.Vault != "" {
		t.Fatalf("the vault is still set: %q %v", cfg.Obsidian.Vault, err)
	}
}

// The vault is a change like any other: a page on another site cannot set
// it.
func TestServer_SetVaultRefusesCrossSite(t *testing.T) {
	h := newHarness(t, llmtest.NewServer(t), nil, "")
	body := fmt.Sprintf(`{"vault":%q}`, t.TempDir())
	for name, header := range map[string]map[string]string{
		"a form":             {"Content-Type": "application/x-www-form-urlencoded"},
		"another origin":     {"Content-Type": "application/json", "Origin": "http://127.0.0.1:1"},
		"a cross-site fetch": {"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"},
	} {
		if status, b := (browserRequest{"PUT", "/api/settings/vault", body, header}).send(t, h.url, false); status != http.StatusForbidden {
			t.Fatalf("%s: %d %s", name, status, b)
		}
	}
	raw, _ := os.ReadFile(filepath.Join(h.home, "hermes.toml"))
	if strings.Contains(string(raw), "vault") {
		t.Fatalf("a refused request set the vault:\n%s", raw)
	}
}
