package toolbox

import "hermes/backend/i18n"

func init() { i18n.Register(catalogMessages) }

func catalogMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"skills.broken": {
			EN: "skill file %s cannot be used: %s; fix it and save again (the other skills keep working)",
			ZH: "技能文件 %s 无法使用：%s；请修正后重新保存（其他技能不受影响）",
		},
		"skills.name_taken": {
			EN: "the skill in %s is named %q, like a skill already loaded; rename it in its skill.json or SKILL.md",
			ZH: "%s 中的技能名为 %q，与已加载的技能重名；请在其 skill.json 或 SKILL.md 中改名",
		},
		"skills.platform": {
			EN: "skill %s runs only on %s, not on %s",
			ZH: "技能 %s 只能在 %s 上运行，不支持 %s",
		},
		"skills.tools_failed": {
			EN: "the tools of skill %s could not be loaded: %s; check its command or server, then save the skill or restart Hermes",
			ZH: "无法加载技能 %s 的工具：%s；请检查其命令或服务器，然后重新保存技能或重启 Hermes",
		},
		"skills.partial": {
			EN: "skill %s: some tools were left out: %s",
			ZH: "技能 %s：部分工具未加载：%s",
		},
		"skills.not_set_up": {
			EN: "not set up in this configuration: %s",
			ZH: "在当前配置下不可用：%s",
		},
		"skills.needs_setup": {
			EN: "skill %s is not set up: %s",
			ZH: "技能 %s 尚未设置：%s",
		},
		"toolbox.setup.obsidian": {
			EN: "no vault is chosen; choose it under Vault on the window's New run page, or set vault under [obsidian] in hermes.toml (`hermes config path` shows where it is)",
			ZH: "尚未选择笔记库；请在窗口的“新建运行”页的“笔记库”处选择，或在 hermes.toml 的 [obsidian] 中设置 vault（`hermes config path` 显示其位置）",
		},
		"skills.check.no_when": {
			EN: "%s: the description never says when to use the tool; add a sentence such as \"Use it when…\"",
			ZH: "%s：描述中没有说明何时使用该工具；请加上一句，例如“在……时使用”",
		},
		"skills.check.no_description": {
			EN: "%s: parameter %s has no description; say what the value means and its format",
			ZH: "%s：参数 %s 没有描述；请说明其含义和格式",
		},
		"skills.check.no_format": {
			EN: "%s: parameter %s looks like a date or time but gives no format; set \"format\": \"date\" (YYYY-MM-DD) or \"date-time\", or name the format in its description",
			ZH: "%s：参数 %s 看起来是日期或时间，但没有给出格式；请设置 \"format\": \"date\"（YYYY-MM-DD）或 \"date-time\"，或在描述中写明格式",
		},
		"skills.check.enum_unlisted": {
			EN: "%s: parameter %s names its choices in prose; list them in \"enum\" so the model can only pick a valid one",
			ZH: "%s：参数 %s 只在描述中列出可选值；请写进 \"enum\"，让模型只能选择有效的值",
		},
		"skills.check.overlap": {
			EN: "%s: its description is much like that of %s, so a model may pick the wrong one; say how each differs and when to use which",
			ZH: "%s：其描述与 %s 非常相似，模型可能选错工具；请写明两者的区别以及各自的使用场景",
		},
	}
}
