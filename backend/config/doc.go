package config

import (
	"maps"
	"sync"

	"hermes/backend/i18n"
)

// keyDoc says what one setting or table does, in both languages. It is the
// one place the documentation of hermes.toml comes from: `hermes config init`
// writes it as comments (DefaultFile) and the table in docs/config.md is generated
// from it (Reference), and a test fails when a key of Config has none.
type keyDoc struct {
	i18n.Msg
	// Shown is written as the key's value where its default is the zero
	// value that the code reading it replaces ("0 means 65536"), and as the
	// example of an array of tables, which has no default entries.
	Shown any
}

func doc(en, zh string) keyDoc { return keyDoc{Msg: i18n.Msg{EN: en, ZH: zh}} }

func docShown(en, zh string, shown any) keyDoc {
	return keyDoc{Msg: i18n.Msg{EN: en, ZH: zh}, Shown: shown}
}

// allDocs is keyed by dotted key; a table's entry describes the table, and
// the keys of an array of tables are written under its name
// ("tools.mcp.name"). It is those below with those the files of some
// sections add, made when the documentation is first read (config init,
// docs/config.md), not in the start of every process.
var allDocs = sync.OnceValue(func() map[string]keyDoc {
	all := baseDocs()
	for _, add := range []func(map[string]keyDoc){clusterDocs, contextDocs, evalDocs, pricesDocs, updateDocs} {
		add(all)
	}
	maps.Copy(all, botDocs())
	return all
})

func baseDocs() map[string]keyDoc {
	return map[string]keyDoc{
		"version": doc("The layout of this file; an older one is upgraded on start, with a backup beside it.",
			"本文件的格式版本；旧版本会在启动时自动升级，并在旁边保留备份。"),

		"agent": doc("The agent loop and its guards.", "智能体循环及其防护规则。"),
		"agent.mode": doc(`What a bare "hermes" starts: "desktop" (the window), "cli" (the list of commands) or "bot" (hermes bot).`,
			`直接运行 "hermes" 时启动什么："desktop"（桌面窗口）、"cli"（命令列表）或 "bot"（hermes bot）。`),
		"agent.max_iterations": doc("Model turns a run may use; every turn counts, failed ones too.",
			"一次运行最多的模型轮次；每一轮都计入，失败的也算。"),
		"agent.token_budget": doc("Total tokens a run may use; 0 means no limit.",
			"一次运行可用的令牌总数；0 表示不限。"),
		"agent.tool_timeout": doc("How long one tool call may take.", "单次工具调用的最长时间。"),
		"agent.workspace": doc(`The only directory the file tools may touch; "" means the current directory. Write Windows paths in single quotes.`,
			`文件工具唯一可访问的目录；"" 表示当前目录。Windows 路径请用单引号。`),
		"agent.repeat_limit": doc("Identical calls in a row, or calls on one target whose arguments barely change and whose results bring nothing new, that make the model change approach; one more stops the run.",
			"连续相同调用（或针对同一目标、参数几乎不变且结果没有新信息的调用）达到此数时提醒模型换个方法；再多一次则停止运行。"),
		"agent.failure_limit": doc("Failures in a row of one tool that stop the run.",
			"同一工具连续失败达到此数时停止运行。"),
		"agent.no_progress_limit": doc("Iterations in a row without a valid result that stop the run.",
			"连续没有有效结果的迭代达到此数时停止运行。"),
		"agent.observation_limit": doc("Characters of a tool result the model sees before the middle is cut (the whole output is kept as an artifact).",
			"模型能看到的工具结果字符数，超出时截去中间部分（完整输出另存为附件）。"),
		"agent.strategy": doc(`How new runs work: "plan" (write a plan of steps, check each step's results, check the answer before ending) or "react" (act and observe).`,
			`新运行的工作方式："plan"（先写出步骤计划，检查每一步的结果，结束前检查答案）或 "react"（边做边看）。`),
		"agent.route": doc("Answer a message that needs no tools (a greeting, a plain question) directly, without the loop.",
			"不需要工具的消息（问候、普通问题）直接回答，不进入循环。"),
		"agent.confidence": doc(`The confidence (0 to 1) the model must have in its answer for a "plan" run to end; below it the run goes on.`,
			`"plan" 运行结束前模型对答案须有的把握（0 到 1）；低于此值则继续工作。`),
		"agent.protocol": doc(`How the model calls tools: "tools" (function calling) or "json" (a JSON object in its reply, for local models without tool calls).`,
			`模型调用工具的方式："tools"（函数调用）或 "json"（在回复中写 JSON 对象，用于不支持工具调用的本地模型）。`),
		"agent.temperature": doc("The sampling temperature of each stage's requests (0 to 2).",
			"各阶段请求的采样温度（0 到 2）。"),
		"agent.temperature.route":    doc("Deciding whether a message needs the loop.", "判断消息是否需要进入循环。"),
		"agent.temperature.plan":     doc("Writing and revising the plan.", "编写和修订计划。"),
		"agent.temperature.decide":   doc("Choosing the next tool calls.", "选择下一步的工具调用。"),
		"agent.temperature.evaluate": doc("Checking a step's results and the answer's confidence.", "检查步骤结果和答案的把握。"),
		"agent.temperature.answer":   doc("Wording the final answer, once every step has passed.", "所有步骤通过后，撰写最终答案。"),
		"agent.top_p": doc("The top_p (nucleus sampling, above 0 and at most 1) of each stage's requests; 0 sends none, so the provider's default applies.",
			"各阶段请求的 top_p（核采样，大于 0 且不超过 1）；0 表示不发送，使用服务商的默认值。"),
		"agent.top_p.route":    doc("Deciding whether a message needs the loop.", "判断消息是否需要进入循环。"),
		"agent.top_p.plan":     doc("Writing and revising the plan.", "编写和修订计划。"),
		"agent.top_p.decide":   doc("Choosing the next tool calls.", "选择下一步的工具调用。"),
		"agent.top_p.evaluate": doc("Checking a step's results and the answer's confidence.", "检查步骤结果和答案的把握。"),
		"agent.top_p.answer":   doc("Wording the final answer, once every step has passed.", "所有步骤通过后，撰写最终答案。"),

		"model": doc("The OpenAI-compatible endpoint: OpenAI, DeepSeek, Qwen, Ollama, LM Studio, vLLM.",
			"OpenAI 兼容的模型服务：OpenAI、DeepSeek、通义千问、Ollama、LM Studio、vLLM。"),
		"model.base_url": doc("The endpoint's URL; OPENAI_BASE_URL overrides it.",
			"模型服务地址；环境变量 OPENAI_BASE_URL 优先。"),
		"model.model": doc("The model's name.", "模型名称。"),
		"model.api_key": doc("The API key, sent to base_url only; better left empty and given by api_key_env.",
			"API 密钥，只发给 base_url；建议留空，改用 api_key_env。"),
		"model.api_key_env": doc(`The environment variable that holds the API key, such as "DEEPSEEK_API_KEY"; when set, OPENAI_API_KEY is never used.`,
			`保存 API 密钥的环境变量名，例如 "DEEPSEEK_API_KEY"；设置后不再使用 OPENAI_API_KEY。`),
		"model.context_window": doc("The model's context window in tokens; 0 means the known window of the model, else 128000.",
			"模型的上下文窗口（令牌数）；0 表示按模型名取已知值，未知时为 128000。"),
		"model.max_retries": doc("Retries of a transient failure (timeout, 5xx, 429), with backoff; 0 means none.",
			"临时故障（超时、5xx、429）的重试次数，带退避；0 表示不重试。"),
		"model.max_output_tokens": doc("The most tokens one reply may hold (256 to 1000000), sent as max_tokens with every request. A reply that goes on past 8 bytes a token (at least 256 KiB) anyway is cut off and counts as a failed request, never as an answer.",
			"单次回复最多的令牌数（256 到 1000000），随每个请求以 max_tokens 发送。若回复超过每令牌 8 字节（至少 256 KiB）仍未结束，则被截断，按请求失败处理，绝不当作答案。"),
		"model.send_reasoning": doc(`Whether the model's reasoning (reasoning_content) goes back to the provider with the conversation: "auto" sends it with tool calls to DeepSeek, GLM and Kimi, whose APIs require it (known by endpoint, elsewhere by model name), and to no one else; "always" sends it with every assistant message; "never" never. The reasoning is shown and kept in the run log either way.`,
			`是否把模型的思考内容（reasoning_content）随对话回传给服务商："auto" 只在带工具调用的消息中回传给 DeepSeek、GLM 和 Kimi（它们的 API 要求回传；按服务地址识别，其他地址按模型名识别），不发给其他服务商；"always" 每条助手消息都回传；"never" 从不回传。无论哪种，思考内容都会显示并保存在运行日志中。`),
		"model.timeout": doc("How long to wait for the first byte, and between streamed chunks that carry text, reasoning or a tool call: a stream of empty chunks is as silent as none.",
			"等待首字节以及两个带有文本、思考内容或工具调用的流式分块之间的最长时间：只发空分块的流视同没有响应。"),
		"model.endpoints": doc("Other endpoints a run may be pointed at (base_url in the API, hermes run --base-url), one [[model.endpoints]] table each with its key. The key above is sent to base_url only: a run at another endpoint gets its entry's key, else none.",
			"运行可以改用的其他模型服务（API 中的 base_url、hermes run --base-url），每个一张 [[model.endpoints]] 表，各带密钥。上面的密钥只发给 base_url：改用其他服务的运行使用该服务条目的密钥，没有条目则不发送密钥。"),
		"model.endpoints.base_url": docShown("The endpoint's URL; a run's base_url matches it by scheme, host, port and path.",
			"服务地址；运行的 base_url 按协议、主机、端口和路径与之匹配。", "https://api.deepseek.com/v1"),
		"model.endpoints.api_key":     doc("Its API key; better left empty and given by api_key_env.", "其 API 密钥；建议留空，改用 api_key_env。"),
		"model.endpoints.api_key_env": docShown("The environment variable that holds its key.", "保存其密钥的环境变量名。", "DEEPSEEK_API_KEY"),

		"tools": doc("Approvals, the skills that are on, and the MCP servers to start.",
			"审批策略、启用的技能以及要启动的 MCP 服务。"),
		"tools.allow": doc("Tools always allowed, whatever their risk.", "无论风险级别都直接允许的工具。"),
		"tools.ask":   doc("Tools always asked about.", "总是需要审批的工具。"),
		"tools.deny":  doc("Tools always denied.", "总是拒绝的工具。"),
		"tools.allow_commands": doc(`Commands execute_command runs without asking when every command of its line (each part of a pipeline, a list, a subshell, an && or || chain) matches one and nothing in it is always asked ($(…), eval, sh -c, sudo, a write outside the workspace…). A pattern matches word by word: "git status" only git status, "go test *" go test with any further arguments. Answering "always" adds one such pattern per command (hermes tools rules).`,
			`当命令行中的每条命令（管道、列表、子 shell、&& 或 || 链的每一部分）都匹配其中一项，且其中没有总是需要询问的内容（$(…)、eval、sh -c、sudo、写到工作区之外……）时，execute_command 无需询问即可运行。模式按单词匹配："git status" 只匹配 git status，"go test *" 匹配带任意后续参数的 go test。回答“始终允许”时，会为每条命令添加一个这样的模式（hermes tools rules）。`),
		"tools.sensitive": docShown("Phrases that make a call always asked, whatever the policy; [] means none.",
			"出现即需审批的敏感词，无论策略如何；[] 表示没有。", DefaultSensitive),
		"tools.enabled":  doc("When not empty, the only skills that are on.", "非空时，仅启用这些技能。"),
		"tools.disabled": doc("Skills that are off.", "停用的技能。"),
		"tools.command_timeout": doc(`How long a command skill or execute_command may run; "0s" means the run's tool_timeout.`,
			`命令技能或 execute_command 的最长运行时间；"0s" 表示沿用 tool_timeout。`),
		"tools.output_limit": docShown("Bytes of a command's output kept (its head and tail).",
			"保留的命令输出字节数（首尾部分）。", DefaultOutputLimit),
		"tools.select_above": docShown("Above this many tools, only the skills relevant to the task are sent to the model.",
			"工具数超过此值时，只向模型发送与任务相关的技能。", DefaultSelectAbove),
		"tools.risk": doc(`The policy of each risk level: "allow", "ask" or "deny"; exec may also be "sandbox".`,
			`各风险级别的策略："allow"（允许）、"ask"（询问）或 "deny"（拒绝）；exec 还可以是 "sandbox"。`),
		"tools.risk.read":  docShown("Tools that only read.", "只读工具。", defaultRisk.Read),
		"tools.risk.write": docShown("Tools that write files.", "写文件的工具。", defaultRisk.Write),
		"tools.risk.exec": docShown(`Tools that run commands. "sandbox": a command runs without asking when it runs inside the OS sandbox ([tools] sandbox), and is asked when it would run outside it (sandbox "off", or an OS without one) unless allow_commands or an "always" answer covers it; a command the model asks to run outside the sandbox is asked every time, whatever the policy.`,
			`执行命令的工具。"sandbox"：命令在系统沙箱（[tools] sandbox）中运行时无需询问；会在沙箱之外运行时（sandbox 为 "off"，或系统没有沙箱）需要询问，除非 allow_commands 或“始终允许”的回答覆盖了它；模型请求在沙箱之外运行的命令每次都要询问，无论策略如何。`, defaultRisk.Exec),
		"tools.risk.network": docShown("Tools that reach the network.", "访问网络的工具。", defaultRisk.Network),
		"tools.mcp": doc("MCP servers started over stdio, one [[tools.mcp]] table each.",
			"通过 stdio 启动的 MCP 服务，每个一张 [[tools.mcp]] 表。"),
		"tools.mcp.name":    docShown("The server's name, used in its tools' names.", "服务名称，用于其工具的名称。", "everything"),
		"tools.mcp.command": docShown("The program to start.", "要启动的程序。", "npx"),
		"tools.mcp.args":    docShown("Its arguments.", "程序参数。", []string{"-y", "@modelcontextprotocol/server-everything"}),
		"tools.mcp.env": docShown("Environment variables for it.", "传给它的环境变量。",
			map[string]string{"LOG_LEVEL": "warn"}),
		"tools.mcp.pass_env": docShown("Variables holding secrets that it is given nonetheless; every other secret Hermes holds (OPENAI_API_KEY, each *_env variable) is left out of its environment.",
			"即使保存着密钥也照样传给它的环境变量；Hermes 掌握的其他密钥（OPENAI_API_KEY、各个 *_env 变量）都不会出现在它的环境中。", []string{"GITHUB_TOKEN"}),
		"tools.mcp.risk":    docShown(`The risk level of its tools; "" means "write".`, `其工具的风险级别；"" 表示 "write"。`, "read"),
		"tools.mcp.network": doc("Lets the server reach the network from its sandbox.", "允许该服务在沙箱中访问网络。"),
		"tools.mcp.writable": doc(`Folders the server may write from its sandbox, besides its private temp folder; absolute or "~/…".`,
			`该服务在沙箱中可写的文件夹（私有临时文件夹之外）；绝对路径或 "~/…"。`),
		"tools.sandbox": docShown(`The OS sandbox every command (execute_command, command skills) and MCP server runs in: "workspace" reads the system and your files but writes only in the workspace and a private temp folder; "read-only" writes nowhere but that temp folder; "off" runs them as you. Either way the Hermes home and the usual places of credentials (~/.ssh, ~/.aws, browser profiles…) cannot be read, nor any other process's environment. Where the OS has no sandbox (Windows; Linux without Landlock) commands run unsandboxed, and every run says so.`,
			`每条命令（execute_command、命令技能）和 MCP 服务运行所在的系统沙箱："workspace" 可读系统和你的文件，但只能写工作区和一个私有临时文件夹；"read-only" 除该临时文件夹外什么都不能写；"off" 以你的身份直接运行。前两种模式下都无法读取 Hermes 主目录和常见的凭据位置（~/.ssh、~/.aws、浏览器配置等），也无法读取其他进程的环境变量。操作系统没有沙箱时（Windows；没有 Landlock 的 Linux），命令不在沙箱中运行，每次运行都会注明。`, SandboxWorkspace),
		"tools.sandbox_network": docShown("Lets sandboxed commands reach the network (and other programs' sockets); off, they cannot open a socket.",
			"允许沙箱中的命令访问网络（以及其他程序的套接字）；关闭时它们无法打开套接字。", false),
		"tools.sandbox_writable": docShown(`Folders sandboxed commands may write besides the workspace; absolute or "~/…".`,
			`沙箱中的命令除工作区外还可写的文件夹；绝对路径或 "~/…"。`, []string{"~/.cache/go-build"}),
		"tools.sandbox_hidden": docShown(`Paths sandboxed commands and the file tools may not read, besides the Hermes home, ~/.ssh, ~/.gnupg, ~/.aws, ~/.config/gcloud, ~/.kube, ~/.docker/config.json, ~/.netrc and browser profiles.`,
			`沙箱中的命令和文件工具不可读取的路径（Hermes 主目录、~/.ssh、~/.gnupg、~/.aws、~/.config/gcloud、~/.kube、~/.docker/config.json、~/.netrc 和浏览器配置之外）。`, []string{"~/work/secrets"}),

		"obsidian": doc("The Obsidian vault the vault tools work on.", "笔记工具所用的 Obsidian 笔记库。"),
		"obsidian.vault": doc(`The vault's folder; "" leaves the vault tools out unless hermes run --vault names one. "~/" is your home; write Windows paths in single quotes.`,
			`笔记库所在的文件夹；"" 表示不启用笔记工具（除非 hermes run 用 --vault 指定）。"~/" 表示主目录；Windows 路径请用单引号。`),
		"obsidian.exclude": docShown(`Folder or file names never read, besides .obsidian, .trash, .git and node_modules; [] means none.`,
			`除 .obsidian、.trash、.git 和 node_modules 外，永不读取的文件夹或文件名；[] 表示没有。`, []string{}),

		"context":              doc("The context layers, compression and long-term memory.", "上下文分层、压缩与长期记忆。"),
		"context.recent_turns": docShown("The latest turns always sent whole.", "始终完整发送的最近轮次数。", DefaultRecentTurns),
		"context.compress_at": docShown("The share of the context window a request may reach before the oldest turns are folded into the summary; if that is not enough, the request's tool results are cut harder, and a request over the window is never sent.",
			"请求占上下文窗口的比例达到此值时，把最早的轮次折叠进摘要；仍不够时进一步截短请求中的工具结果；超过窗口的请求从不发送。", DefaultCompressAt),
		"context.summary_model": doc(`The model that writes the summaries; "" means [model] model.`,
			`编写摘要所用的模型；"" 表示沿用 [model] model。`),
		"context.memory": docShown(`What runs do with long-term memory: "on" (recall and write), "read" (recall only) or "off".`,
			`运行如何使用长期记忆："on"（回忆并写入）、"read"（只回忆）或 "off"（关闭）。`, MemoryOn),
		"context.memory_tokens": docShown("Tokens of recalled memory in every request, at most.", "每次请求中回忆内容的令牌上限。", DefaultMemoryTokens),
		"context.memory_fade": docShown("How long a memory that is neither pinned nor recalled is kept.",
			"既未固定也未被回忆的记忆保留多久。", Duration{DefaultMemoryFade}),

		"update": doc("How Hermes updates itself.", "Hermes 的自动更新。"),

		"desktop": doc("What the desktop window does on your desktop; hermes serve and hermes bot ignore it.", "桌面窗口在你的桌面上做什么；hermes serve 和 hermes bot 忽略此节。"),
		"desktop.notify": doc("Send a system notification, with the run's title, when a run waits for your approval or answer, or finishes, fails or is stopped by a guard, while the window is not in front; a click on it shows the run. Read at each notification: no restart needed.",
			"窗口不在最前面时，若运行等待你的审批或回答，或已完成、失败、被护栏停止，就发送一条带运行标题的系统通知；点击它即显示该运行。每次通知时读取，无需重启。"),

		"bot": doc("hermes bot: the chat-bot webhook server (WeCom first).", "hermes bot：聊天机器人回调服务（首先支持企业微信）。"),
		// Each platform linked adds itself to it (botDocs).
		"bot.platform": docShown(`The adapter: one of the chat platforms this build of Hermes links.`,
			`适配器：本 Hermes 构建所含的聊天平台之一。`, BotWeCom),
		"bot.listen":             docShown("The address the callback server listens on.", "回调服务监听的地址。", DefaultBotListen),
		"bot.path":               docShown("The URL path of the callback.", "回调的 URL 路径。", DefaultBotPath),
		"bot.webhook_secret":     doc("WeCom's callback Token, or the generic webhook's HMAC key.", "企业微信回调的 Token，或通用回调的 HMAC 密钥。"),
		"bot.webhook_secret_env": doc("The environment variable that holds webhook_secret.", "保存 webhook_secret 的环境变量名。"),
		// The platforms' own keys (WeCom's corp_id, Feishu's app_id) are
		// documented where each registers them (botDocs).
		// Each platform linked adds its own address to it (botDocs).
		"bot.api_base":   doc(`The platform API's address; "" is the platform's own.`, `平台 API 的地址；"" 表示该平台自己的地址。`),
		"bot.rate_limit": docShown("WeCom or Feishu API calls that may start in any one second.", "每秒最多发起的企业微信或飞书 API 调用数。", DefaultBotRateLimit),
		"bot.max_body":   docShown("The largest callback body accepted, in bytes.", "可接受的回调请求体最大字节数。", DefaultBotMaxBody),
		"bot.allow_tools": doc("Tools that may run in the bot although the policy would ask a person; every other asked call is denied.",
			"在机器人中即使策略要求审批也允许运行的工具；其他需审批的调用一律拒绝。"),
		"bot.allow_departments": doc(`Who may use the bot (platform "wecom"): members of these departments, by id or name (such as [2, "研发部"]), or of their sub-departments, as the contacts say; anyone else gets a polite refusal and no run. Needs the application's contacts permission. [] lets everyone.`,
			`谁可以使用机器人（平台 "wecom"）：这些部门（按 ID 或名称，例如 [2, "研发部"]）及其子部门的成员，以通讯录为准；其他人会收到礼貌的拒绝，不会开始运行。需要应用具有通讯录权限。[] 表示所有人。`),
		"bot.workspace": doc(`The folder under which each user gets a workspace of their own; "" means HOME/bot/workspaces.`,
			`每个用户各自工作区的上级目录；"" 表示 主目录/bot/workspaces。`),
		"bot.history":     docShown("Earlier exchanges of a session that the next run sees.", "下一次运行能看到的本会话此前对话数。", DefaultBotHistory),
		"bot.run_timeout": docShown("How long one run may go on before it is stopped at a safe point.", "单次运行的最长时间，超时后在安全点停止。", Duration{DefaultBotRunTimeout}),

		"telemetry": doc("Every run exported as an OpenTelemetry trace (OTLP) to Jaeger, Grafana Tempo, Langfuse or any collector; see docs/telemetry.md.",
			"把每次运行导出为 OpenTelemetry 链路（OTLP），发往 Jaeger、Grafana Tempo、Langfuse 或任意采集端；见 docs/telemetry.md。"),
		"telemetry.otlp_endpoint": doc(`The collector's base URL, such as "http://localhost:4318" (OTLP/HTTP posts to its /v1/traces) or "http://localhost:4317" with protocol "grpc"; "" exports nothing. Exporting never slows or fails a run.`,
			`采集端的基础地址，例如 "http://localhost:4318"（OTLP/HTTP 发往其 /v1/traces），或配合 protocol "grpc" 使用 "http://localhost:4317"；"" 表示不导出。导出绝不会拖慢运行或使其失败。`),
		"telemetry.protocol": docShown(`"http" (OTLP/HTTP, protobuf) or "grpc" (OTLP/gRPC).`, `"http"（OTLP/HTTP，protobuf）或 "grpc"（OTLP/gRPC）。`, TelemetryHTTP),
		"telemetry.headers_env": doc(`Headers sent with every export, each read from an environment variable: { Authorization = "LANGFUSE_AUTH" } sends the variable's value as Authorization. The values are secrets: never written to a log or an event.`,
			`每次导出附带的请求头，值从环境变量读取：{ Authorization = "LANGFUSE_AUTH" } 会把该变量的值作为 Authorization 发送。这些值是密钥，绝不写入日志或事件。`),
		"telemetry.service_name": docShown("The service.name of the traces.", "链路的 service.name。", DefaultServiceName),
		"telemetry.include_content": doc("Also export prompts, reasoning, tool arguments and results, with every secret redacted as in the run's events; otherwise only names, timings, token counts and statuses.",
			"同时导出提示词、思考内容、工具参数和结果（所有密钥已按运行事件的方式打码）；否则只导出名称、耗时、令牌数和状态。"),
	}
}
