package skills

import "hermes/backend/i18n"

func init() { i18n.Register(skillsMessages) }

func skillsMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
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
