package app

import (
	"os"
	"path/filepath"
	"strings"

	"hermes/backend/config"
)

// Drop is what was dropped on the window: a folder to start a new run in,
// or a note of the vault to open (Note is its path in the vault).
type Drop struct {
	Kind string `json:"kind"` // "folder" or "note"
	Path string `json:"path"`
	Note string `json:"note,omitempty"`
}

// dropped is what the first of paths dropped on the window is for: a
// folder, or a Markdown note inside [obsidian] vault; false for anything
// else, which the window ignores.
func (a *App) dropped(paths []string) (Drop, bool) {
	if len(paths) == 0 {
		return Drop{}, false
	}
	path := paths[0]
	fi, err := os.Stat(path)
	if err != nil {
		return Drop{}, false
	}
	if fi.IsDir() {
		return Drop{Kind: "folder", Path: path}, true
	}
	cfg, err := config.Load(config.Path(a.host.Home()))
	if err != nil || cfg.Obsidian.Vault == "" || !strings.EqualFold(filepath.Ext(path), ".md") {
		return Drop{}, false
	}
	if note, ok := inVault(cfg.Obsidian.Vault, path); ok {
		return Drop{Kind: "note", Path: path, Note: note}, true
	}
	return Drop{}, false
}

// inVault is path's place in vault ("Projects/Plan.md"), false when it
// lies outside.
func inVault(vault, path string) (string, bool) {
	if strings.HasPrefix(vault, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			vault = filepath.Join(home, vault[2:])
		}
	}
	if v, err := filepath.EvalSymlinks(vault); err == nil {
		vault = v
	}
	if p, err := filepath.EvalSymlinks(path); err == nil {
		path = p
	}
	rel, err := filepath.Rel(vault, path)
	if err != nil || rel == "." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || rel == ".." || filepath.IsAbs(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}
