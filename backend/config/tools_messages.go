package config

import "hermes/backend/i18n"

func init() { i18n.Register(toolsMessages) }

func toolsMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"config.tools.action": {
			EN: `%s is %q but must be "allow", "ask" or "deny"; change it in hermes.toml`,
			ZH: `%s 为 %q，但只能是 "allow"、"ask" 或 "deny"；请在 hermes.toml 中修改`,
		},
		"config.tools.exec_action": {
			EN: `[tools.risk] exec is %q but must be "sandbox", "allow", "ask" or "deny"; change it in hermes.toml`,
			ZH: `[tools.risk] exec 为 %q，但只能是 "sandbox"、"allow"、"ask" 或 "deny"；请在 hermes.toml 中修改`,
		},
		"config.tools.sandbox_action": {
			EN: `[tools.risk] %s is "sandbox", which only exec can be (only commands run in the OS sandbox); use "allow", "ask" or "deny"`,
			ZH: `[tools.risk] %s 为 "sandbox"，但只有 exec 可以这样设置（只有命令在系统沙箱中运行）；请使用 "allow"、"ask" 或 "deny"`,
		},
		"config.tools.allow_command": {
			EN: `[tools] allow_commands holds %q, which is not a command of plain words; write it as words with * for any further arguments, such as "go test *", without $, backquotes, |, &, <, > or parentheses, and close its quotes`,
			ZH: `[tools] allow_commands 中的 %q 不是由普通单词组成的命令；请写成单词，用 * 表示任意后续参数，例如 "go test *"，不要包含 $、反引号、|、&、<、> 或括号，并闭合引号`,
		},
		"config.tools.allow_commands_one": {
			EN: `[tools] allow_commands holds %q, which is several commands; write one command per entry, such as ["git status", "go test *"]`,
			ZH: `[tools] allow_commands 中的 %q 包含多条命令；请每项只写一条命令，例如 ["git status", "go test *"]`,
		},
		"config.tools.command_pattern": {
			EN: `%q is not a command pattern: write plain words with * for any further arguments, such as "go test *", one command per pattern separated by ";", without $, backquotes, |, &, <, > or parentheses`,
			ZH: `%q 不是命令模式：请写普通单词，用 * 表示任意后续参数，例如 "go test *"；多条命令之间用 ";" 分隔，不要包含 $、反引号、|、&、<、> 或括号`,
		},
		"config.tools.twice": {
			EN: "tool %q is listed in both [tools] %s and [tools] %s; keep it in one list",
			ZH: "工具 %q 同时出现在 [tools] %s 和 [tools] %s 中；请只保留在一个列表里",
		},
		"config.tools.empty_pattern": {
			EN: "[tools] sensitive holds an empty pattern, which would match every call; remove it",
			ZH: "[tools] sensitive 中有一个空模式，它会匹配所有调用；请删除它",
		},
		"config.tools.mcp_name": {
			EN: "[[tools.mcp]] number %d has the name %q; give it a name of 1 to 32 letters, digits, _ or -",
			ZH: "第 %d 个 [[tools.mcp]] 的名称为 %q；请使用 1 到 32 个字母、数字、_ 或 - 组成的名称",
		},
		"config.tools.mcp_dup": {
			EN: "two [[tools.mcp]] servers are named %q; give each a name of its own",
			ZH: "有两个 [[tools.mcp]] 服务器都叫 %q；请为每个服务器取不同的名称",
		},
		"config.tools.mcp_command": {
			EN: "[[tools.mcp]] %q has no command; set command to the program that starts the server, such as \"npx\"",
			ZH: "[[tools.mcp]] %q 没有 command；请设为启动该服务器的程序，例如 \"npx\"",
		},
		"config.tools.sandbox": {
			EN: `[tools] sandbox is %q but must be "workspace", "read-only" or "off"; change it in hermes.toml`,
			ZH: `[tools] sandbox 为 %q，但只能是 "workspace"、"read-only" 或 "off"；请在 hermes.toml 中修改`,
		},
		"config.tools.sandbox_path": {
			EN: `[tools] %s holds %q, which is not an absolute path; write it in full or start it with "~/"`,
			ZH: `[tools] %s 中的 %q 不是绝对路径；请写出完整路径，或以 "~/" 开头`,
		},
		"config.tools.mcp_risk": {
			EN: `[[tools.mcp]] %q has risk %q; use "read", "write", "exec" or "network"`,
			ZH: `[[tools.mcp]] %q 的 risk 为 %q；请使用 "read"、"write"、"exec" 或 "network"`,
		},
	}
}
