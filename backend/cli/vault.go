package cli

import "hermes/backend/i18n"

func init() { i18n.Register(vaultMessages) }

func vaultMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"cli.flag.vault": {
			EN: "an Obsidian vault for the vault tools (search_notes, read_note, append_note, …); default [obsidian] vault",
			ZH: "供笔记工具（search_notes、read_note、append_note 等）使用的 Obsidian 笔记库；默认为 [obsidian] vault",
		},
	}
}
