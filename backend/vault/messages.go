package vault

import "hermes/backend/i18n"

func init() { i18n.Register(vaultMessages) }

func vaultMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"vault.not_found": {
			EN: "the vault %s does not exist or is not a folder; set [obsidian] vault in hermes.toml, or --vault, to the folder of your Obsidian vault",
			ZH: "笔记库 %s 不存在或不是文件夹；请把 hermes.toml 的 [obsidian] vault 或 --vault 设为你的 Obsidian 笔记库所在的文件夹",
		},
		"vault.undo_changed": {
			EN: "%s changed after the edit, so Undo would lose that change and is refused; open the note in Obsidian and undo by hand",
			ZH: "%s 在这次修改之后又被改动过，撤销会丢失那次改动，因此已拒绝；请在 Obsidian 中打开这篇笔记手动撤销",
		},
		"vault.undo_no_copy": {
			EN: "the copy of %s kept before the edit is gone (%v), so it cannot be undone; open the note in Obsidian and undo by hand",
			ZH: "修改前保留的 %s 副本已不存在（%v），无法撤销；请在 Obsidian 中打开这篇笔记手动撤销",
		},
		"vault.undo_taken": {
			EN: "%s exists again, so the rename cannot be undone without replacing it; rename or move that note first, then Undo",
			ZH: "%s 又已存在，撤销重命名会覆盖它；请先重命名或移走那篇笔记，再撤销",
		},
		"vault.undo_failed": {
			EN: "could not undo the edit of %s (%v); the notes undone so far stay undone, try Undo again",
			ZH: "无法撤销对 %s 的修改（%v）；已撤销的笔记保持撤销状态，请再试一次撤销",
		},
		"vault.no_note": {
			EN: "there is no note %s in the vault, or it cannot be read; it may have been renamed or deleted since, so search for it in Obsidian",
			ZH: "笔记库中没有笔记 %s，或无法读取；它可能已被重命名或删除，请在 Obsidian 中搜索",
		},
		"vault.change.folder":          {EN: "folder %s → %s, with everything in it", ZH: "文件夹 %s → %s，连同其中的一切"},
		"vault.change.created":         {EN: "%s (a new note)", ZH: "%s（新笔记）"},
		"vault.change.none":            {EN: "(none)", ZH: "（无）"},
		"vault.change.section_added":   {EN: "section “%s” added", ZH: "新增章节“%s”"},
		"vault.change.section_removed": {EN: "section “%s” removed", ZH: "删除章节“%s”"},
		"vault.change.more_notes":      {EN: "…and %d more notes", ZH: "……另有 %d 篇笔记"},
		"vault.change.more_links":      {EN: "…and %d more links", ZH: "……另有 %d 个链接"},
		"vault.change.more_lines":      {EN: "…and %d more lines", ZH: "……另有 %d 行"},
		"vault.undone": {
			EN: "this edit was undone already",
			ZH: "这次修改已经撤销过了",
		},
		"vault.bad_exclude": {
			EN: "the exclude pattern %q is malformed; fix [obsidian] exclude in hermes.toml (patterns such as \"Archive\" or \"*.excalidraw.md\")",
			ZH: "排除规则 %q 格式有误；请修改 hermes.toml 的 [obsidian] exclude（例如 \"Archive\" 或 \"*.excalidraw.md\"）",
		},
	}
}
