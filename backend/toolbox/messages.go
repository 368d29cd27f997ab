package toolbox

import "hermes/backend/i18n"

func init() { i18n.Register(skillsMessages) }

func skillsMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		// Why a policy allows, asks about or denies a call; the model reads
		// them in English.
		"skills.policy.listed":         {EN: "%s is listed in [tools] %s", ZH: "%s 列在 [tools] %s 中"},
		"skills.policy.risk":           {EN: "%s is a %s tool and [tools.risk] %s = %q", ZH: "%s 是 %s 类工具，且 [tools.risk] %s = %q"},
		"skills.policy.sandboxed":      {EN: "%s: it runs inside the OS sandbox", ZH: "%s：它在系统沙箱内运行"},
		"skills.policy.unconfined":     {EN: `%s: it would run outside the OS sandbox ([tools] sandbox = "off", or none on this OS), so it is asked`, ZH: `%s：它会在系统沙箱之外运行（[tools] sandbox = "off"，或本系统没有沙箱），因此需要询问`},
		"skills.policy.escaping":       {EN: "the model asked to run it outside the OS sandbox, which a person approves each time", ZH: "模型要求在系统沙箱之外运行它，这每次都需要人来批准"},
		"skills.policy.sensitive":      {EN: "the arguments contain the sensitive phrase %q ([tools] sensitive)", ZH: "参数中含有敏感词 %q（[tools] sensitive）"},
		"skills.policy.rule":           {EN: "remembered rule %d (hermes tools rules)", ZH: "已记住的规则 %d（hermes tools rules）"},
		"skills.policy.rule_n":         {EN: "remembered rule %d", ZH: "已记住的规则 %d"},
		"skills.policy.allow_commands": {EN: "[tools] allow_commands", ZH: "[tools] allow_commands"},
		"skills.policy.commands":       {EN: "every command matches %s (hermes tools rules)", ZH: "每条命令都符合 %s（hermes tools rules）"},
		"skills.duplicate_tool": {
			EN: "a tool named %q is already registered; give the new tool another name or disable the skill that defines the other one",
			ZH: "已存在名为 %q 的工具；请给新工具换一个名字，或停用定义了同名工具的技能",
		},
		"skills.invalid_tool": {
			EN: "tool %q cannot be registered: %s; fix its definition and load it again",
			ZH: "无法注册工具 %q：%s；请修正其定义后重新加载",
		},
	}
}
