package cli

import (
	"os"
	"path/filepath"
	"strings"

	"hermes/backend/config"
	"hermes/backend/i18n"
	"hermes/backend/skills"
	"hermes/backend/vault"
)

// openVault opens the vault that [obsidian] vault (or --vault) names, with
// its index kept current while the command runs, and returns it with its
// tools; nil and no tools when no vault is set.
func openVault(home string, o config.Obsidian) (*vault.Vault, []skills.Tool, error) {
	if o.Vault == "" {
		return nil, nil, nil
	}
	dir := o.Vault
	if rest, ok := strings.CutPrefix(dir, "~/"); ok {
		if h, err := os.UserHomeDir(); err == nil {
			dir = filepath.Join(h, rest)
		}
	}
	v, err := vault.Open(dir, vault.Options{Home: home, Exclude: o.Exclude, Watch: true})
	if err != nil {
		return nil, nil, err
	}
	return v, vault.Tools(v), nil
}

func init() {
	i18n.Register(map[string]i18n.Msg{
		"cli.flag.vault": {
			EN: "an Obsidian vault for the vault tools (search_notes, read_note, append_note, …); default [obsidian] vault",
			ZH: "供笔记工具（search_notes、read_note、append_note 等）使用的 Obsidian 笔记库；默认为 [obsidian] vault",
		},
	})
}
