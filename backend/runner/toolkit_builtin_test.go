package runner

import (
	"slices"
	"testing"

	"hermes/backend/config"
	"hermes/backend/toolbox"
	"hermes/backend/vault"
)

// TestToolkit_BuiltinManifestsNameRegisteredTools: a built-in skill's manifest
// lists only tools registered for its skill (toolbox.Register), the vault's
// included, so that it orders tools and never adds one; and a toolkit with
// a vault loads every built-in skill whole.
func TestToolkit_BuiltinManifestsNameRegisteredTools(t *testing.T) {
	v, err := vault.Prepare(t.TempDir(), vault.Options{Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	for _, m := range toolbox.BuiltinSkills() {
		var registered []string
		for _, tool := range toolbox.Builtins(toolbox.With{Vault: v}, m.Name) {
			registered = append(registered, tool.Name)
		}
		for _, mt := range m.Tools {
			if !slices.Contains(registered, mt.Name) {
				t.Errorf("the built-in skill %s lists %s, which is not registered for it (it has %v)", m.Name, mt.Name, registered)
			}
		}
	}

	cfg := config.Default()
	cfg.Obsidian.Vault = v.Dir()
	kit, err := OpenToolkit(t.Context(), t.TempDir(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer kit.Close()
	for _, s := range kit.Catalog.Skills() {
		if s.Source == "builtin" && (s.Status != toolbox.StatusLoaded || s.Problem != nil) {
			t.Errorf("built-in skill %s: %s %v", s.Name, s.Status, s.Problem)
		}
	}
}
