package cli

import "hermes/backend/i18n"

func init() { i18n.Register(skillsMessages) }

func skillsMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"cli.cmd.skills":   {EN: "list the skills (`skills list`) or review their descriptions (`skills check`)", ZH: "列出技能（`skills list`）或检查其描述（`skills check`）"},
		"cli.cmd.tools":    {EN: "list the tools, call one (`tools call NAME 'JSON'`), list or revoke \"always\" approvals", ZH: "列出工具、直接调用一个工具（`tools call 名称 'JSON'`）、查看或撤销“始终允许”的规则"},
		"cli.flag.sandbox": {EN: `the OS sandbox of this run's commands: "workspace" (write only the workspace), "read-only" or "off"; default [tools] sandbox`, ZH: `本次运行中命令所用的系统沙箱："workspace"（只能写工作区）、"read-only" 或 "off"；默认取 [tools] sandbox`},
		"cli.flag.yes":     {EN: "allow every call that would be asked about, for this run only", ZH: "本次运行中自动允许所有需要确认的调用"},
		"cli.skills.usage": {
			EN: "usage: hermes skills list [--home DIR] [--config FILE] [--json] | hermes skills check [--home DIR] [--config FILE]",
			ZH: "用法：hermes skills list [--home 目录] [--config 文件] [--json] | hermes skills check [--home 目录] [--config 文件]",
		},
		"cli.skills.flag.json":          {EN: "print JSON instead of a table", ZH: "输出 JSON 而不是表格"},
		"cli.skills.problem":            {EN: "warning: %s", ZH: "警告：%s"},
		"cli.skills.tools":              {EN: "tools: %s", ZH: "工具：%s"},
		"cli.skills.asks_network":       {EN: "sandbox: may reach the network", ZH: "沙箱：可以访问网络"},
		"cli.skills.asks_writable":      {EN: "sandbox: may also write %s", ZH: "沙箱：还可以写入 %s"},
		"cli.skills.has_instructions":   {EN: "instructions: SKILL.md (given to the model by load_skill)", ZH: "说明：SKILL.md（模型通过 load_skill 读取）"},
		"cli.skills.status.loaded":      {EN: "loaded", ZH: "已加载"},
		"cli.skills.status.disabled":    {EN: "disabled", ZH: "已停用"},
		"cli.skills.status.unavailable": {EN: "unavailable", ZH: "不可用"},
		"cli.skills.status.broken":      {EN: "broken", ZH: "有错误"},
		"cli.skills.check_found": {
			EN: "%d broken skills, %d findings; fix the descriptions above so the model picks and calls the tools right",
			ZH: "%d 个技能有错误，%d 条检查意见；请按上面的提示修改描述，让模型正确选择和调用工具",
		},
		"cli.skills.check_clean": {EN: "%d tools checked; nothing found", ZH: "已检查 %d 个工具，未发现问题", EN1: "%d tool checked; nothing found"},
		"cli.tools.usage": {
			EN: "usage: hermes tools list [--json] | hermes tools call [--workspace DIR] [--yes] NAME ['JSON'] | hermes tools rules | hermes tools revoke ID  (each takes --home DIR)",
			ZH: "用法：hermes tools list [--json] | hermes tools call [--workspace 目录] [--yes] 名称 ['JSON'] | hermes tools rules | hermes tools revoke 编号（均可加 --home 目录）",
		},
		"cli.tools.call_usage": {
			EN: "usage: hermes tools call [--home DIR] [--workspace DIR] [--yes] NAME ['JSON arguments']; `hermes tools list` shows the names",
			ZH: "用法：hermes tools call [--home 目录] [--workspace 目录] [--yes] 名称 ['JSON 参数']；`hermes tools list` 可查看工具名称",
		},
		"cli.tools.rules_usage":  {EN: "usage: hermes tools rules [--home DIR]", ZH: "用法：hermes tools rules [--home 目录]"},
		"cli.tools.revoke_usage": {EN: "usage: hermes tools revoke [--home DIR] ID (`hermes tools rules` shows the ids)", ZH: "用法：hermes tools revoke [--home 目录] 编号（`hermes tools rules` 可查看编号）"},
		"cli.tools.invalid":      {EN: "invalid call: %s", ZH: "调用无效：%s"},
		"cli.tools.failed":       {EN: "%s failed: %s", ZH: "%s 执行失败：%s"},
		"cli.tools.timeout": {
			EN: "%s did not finish within %s; raise [agent] tool_timeout or [tools] command_timeout, or ask for less",
			ZH: "%s 未在 %s 内完成；请调大 [agent] tool_timeout 或 [tools] command_timeout，或减少请求的内容",
		},
		"cli.tools.denied_policy": {
			EN: "%s is not allowed: %s; change [tools] in hermes.toml to allow it",
			ZH: "不允许调用 %s：%s；如需允许，请修改 hermes.toml 中的 [tools]",
		},
		"cli.tools.denied_no_terminal": {
			EN: "%s needs approval (%s) and stdin is not a terminal to ask on; run it in a terminal, pass --yes, or allow it in [tools]",
			ZH: "%s 需要确认（%s），但标准输入不是终端，无法询问；请在终端中运行、加上 --yes，或在 [tools] 中允许它",
		},
		"cli.tools.denied_user":    {EN: "%s was denied", ZH: "已拒绝 %s"},
		"cli.tools.not_remembered": {EN: "warning: the \"always\" answer could not be saved: %s", ZH: "警告：无法保存“始终允许”：%s"},
		"cli.tools.no_rules":       {EN: "no \"always\" approvals are remembered", ZH: "没有已保存的“始终允许”规则"},
		"cli.tools.any_arguments":  {EN: "(any arguments)", ZH: "（任意参数）"},
		"cli.tools.no_rule":        {EN: "there is no rule %d; `hermes tools rules` lists them", ZH: "没有编号为 %d 的规则；`hermes tools rules` 可列出所有规则"},
		"cli.tools.revoked":        {EN: "rule %d revoked: the tool is asked about again", ZH: "已撤销规则 %d：再次调用该工具时会重新询问"},
		"cli.approve.title":        {EN: "? %s (%s) wants to run with:", ZH: "? %s（%s）请求运行，参数："},
		"cli.approve.why":          {EN: "asked because %s", ZH: "询问原因：%s"},
		"cli.approve.choices": {
			EN: "  [o] allow once  [r] allow for this run  [a] always  [d] deny > ",
			ZH: "  [o] 允许一次  [r] 本次运行内允许  [a] 始终允许  [d] 拒绝 > ",
		},
		"cli.approve.pattern": {
			EN: "  only for arguments matching (a * glob such as \"git *\"; Enter for any) > ",
			ZH: "  仅限匹配的参数（* 通配，例如 \"git *\"；直接回车表示任意参数）> ",
		},
		"cli.approve.commands": {EN: "it runs:", ZH: "将运行："},
		"cli.approve.more_chars": {
			EN: "… (%d more characters; the run's page shows the call whole)",
			ZH: "……（另有 %d 个字符；运行页面显示完整调用）",
		},
		"cli.approve.more_commands": {EN: "… and %d more commands", ZH: "……另有 %d 条命令"},
		"cli.approve.change":        {EN: "it changes:", ZH: "将做的修改："},
		"cli.approve.risky":         {EN: "always asked: %s", ZH: "总是需要询问：%s"},
		"cli.approve.escaping": {
			EN: "the model asks to run this outside the OS sandbox, where it can do anything you can: allow it only once, and only if it must",
			ZH: "模型请求在系统沙箱之外运行它，届时它能做你能做的任何事：只能允许这一次，且仅在确有必要时允许",
		},
		"cli.approve.choices_once": {
			EN: "  [o] allow once  [d] deny > ",
			ZH: "  [o] 允许一次  [d] 拒绝 > ",
		},
		"cli.approve.command_patterns": {
			EN: "  always allow these commands (Enter for %s; or write patterns separated by \";\", * for any further arguments) > ",
			ZH: "  始终允许这些命令（直接回车表示 %s；或输入用 \";\" 分隔的模式，* 表示任意后续参数）> ",
		},
		"cli.approve.reason": {EN: "  reason, for the model (Enter for none) > ", ZH: "  拒绝原因，会告诉模型（直接回车表示不填）> "},
		"cli.approve.no_terminal": {
			EN: "%s needs approval and stdin is not a terminal, so it was denied; run in a terminal, pass --yes, or allow it in [tools] of hermes.toml",
			ZH: "%s 需要确认，但标准输入不是终端，因此已被拒绝；请在终端中运行、加上 --yes，或在 hermes.toml 的 [tools] 中允许它",
		},
	}
}
