package config

import "hermes/backend/i18n"

func init() { i18n.Register(obsidianMessages) }

func obsidianMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"config.obsidian.exclude": {
			EN: `[obsidian] exclude holds %q, which is not a folder or file name pattern; write names such as "Archive" or "*.excalidraw.md", without slashes`,
			ZH: `[obsidian] exclude 中的 %q 不是有效的文件夹或文件名模式；请写成 "Archive" 或 "*.excalidraw.md" 这样的名字，不要带斜杠`,
		},
		"config.vault.not_folder": {
			EN: "the vault %q is not a folder: choose the folder of an existing vault, the one that holds its .obsidian folder",
			ZH: "笔记库 %q 不是文件夹：请选择一个已有笔记库的文件夹，即包含其 .obsidian 文件夹的那个",
		},
		"config.vault.relative": {
			EN: "the vault %q is a relative path: write the whole path of its folder, or one that starts with ~/",
			ZH: "笔记库 %q 是相对路径：请写出其文件夹的完整路径，或以 ~/ 开头的路径",
		},
		"config.vault.edit": {
			EN: "cannot set [obsidian] vault in %s: %v; edit the file by hand, or run `hermes config check` to see what is wrong with it",
			ZH: "无法在 %s 中设置 [obsidian] vault：%v；请手动编辑该文件，或运行 `hermes config check` 查看其中的问题",
		},
	}
}
