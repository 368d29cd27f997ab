package runner

import "hermes/backend/i18n"

func init() { i18n.Register(toolsMessages) }

func toolsMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"runner.config.reloaded_tools": {
			EN: "%s changed: runs started from now on use the new settings, with %s; runs already going keep their tools",
			ZH: "%s 已更改：此后开始的运行将使用新设置，包括%s；进行中的运行保留原来的工具",
		},
		"runner.skills.reloaded": {
			EN: "%s changed: runs started from now on get %s; runs already going keep their tools",
			ZH: "%s 已更改：此后开始的运行将获得%s；进行中的运行保留原来的工具",
		},
		"runner.config.tools_failed": {
			EN: "%s changed, but new runs cannot start until this is fixed; runs already going keep their tools",
			ZH: "%s 已更改，但在修正以下问题之前无法开始新的运行；进行中的运行保留原来的工具",
		},
		"runner.tools.sep":        {EN: "; ", ZH: "；"},
		"runner.tools.vault":      {EN: "the vault %s", ZH: "笔记库 %s"},
		"runner.tools.no_vault":   {EN: "no vault", ZH: "无笔记库"},
		"runner.tools.skills":     {EN: "the skills %s", ZH: "技能 %s"},
		"runner.tools.mcp":        {EN: "the MCP servers %s", ZH: "MCP 服务器 %s"},
		"runner.tools.no_mcp":     {EN: "no MCP server", ZH: "无 MCP 服务器"},
		"runner.tools.mcp_tools":  {EN: "%s (%d tools)", ZH: "%s（%d 个工具）", EN1: "%s (%d tool)"},
		"runner.tools.mcp_off":    {EN: "%s (turned off in [tools])", ZH: "%s（已在 [tools] 中关闭）"},
		"runner.tools.mcp_failed": {EN: "%s (not started: %s)", ZH: "%s（未启动：%s）"},
	}
}
