package config

import "hermes/backend/i18n"

func init() { i18n.Register(obsidianMessages) }

func obsidianMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"config.obsidian.exclude": {
			EN: `[obsidian] exclude holds %q, which is not a folder or file name pattern; write names such as "Archive" or "*.excalidraw.md", without slashes`,
			ZH: `[obsidian] exclude 中的 %q 不是有效的文件夹或文件名模式；请写成 "Archive" 或 "*.excalidraw.md" 这样的名字，不要带斜杠`,
		},
	}
}
