package vault

import "hermes/backend/i18n"

func init() { i18n.Register(vaultMessages) }

func vaultMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"vault.not_found": {
			EN: "the vault %s does not exist or is not a folder; set [obsidian] vault in hermes.toml, or --vault, to the folder of your Obsidian vault",
			ZH: "笔记库 %s 不存在或不是文件夹；请把 hermes.toml 的 [obsidian] vault 或 --vault 设为你的 Obsidian 笔记库所在的文件夹",
		},
		"vault.bad_exclude": {
			EN: "the exclude pattern %q is malformed; fix [obsidian] exclude in hermes.toml (patterns such as \"Archive\" or \"*.excalidraw.md\")",
			ZH: "排除规则 %q 格式有误；请修改 hermes.toml 的 [obsidian] exclude（例如 \"Archive\" 或 \"*.excalidraw.md\"）",
		},
	}
}
