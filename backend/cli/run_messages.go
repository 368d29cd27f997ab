package cli

import "hermes/backend/i18n"

func init() { i18n.Register(runMessages) }

func runMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"cli.flag.config":         {EN: "config file (default HOME/hermes.toml)", ZH: "配置文件（默认 主目录/hermes.toml）"},
		"cli.flag.model":          {EN: "model name, overriding [model] model", ZH: "模型名称，覆盖 [model] model"},
		"cli.flag.base_url":       {EN: "OpenAI-compatible endpoint, overriding [model] base_url and OPENAI_BASE_URL", ZH: "OpenAI 兼容的接口地址，覆盖 [model] base_url 和 OPENAI_BASE_URL"},
		"cli.flag.max_iterations": {EN: "stop after this many model turns (default [agent] max_iterations, 25)", ZH: "模型轮次上限（默认 [agent] max_iterations，25）"},
		"cli.flag.json":           {EN: "print the event stream as JSON lines instead of the live view", ZH: "以 JSON 行输出事件流，而不是实时视图"},
		"cli.flag.verbose":        {EN: "show full tool arguments and results", ZH: "显示完整的工具参数和结果"},
		"cli.flag.memory":         {EN: `long-term memory for this run: "on" (recall, and keep what the run verified), "read" (recall only) or "off"; default [context] memory`, ZH: `本次运行的长期记忆："on"（召回，并保存运行验证过的内容）、"read"（只召回）或 "off"；默认取 [context] memory`},
		"cli.flag.workspace":      {EN: "directory the file tools may use (default: the current directory)", ZH: "文件工具可访问的目录（默认：当前目录）"},
		"cli.flag.instructions":   {EN: "standing instructions that hold for the whole run", ZH: "在整个运行期间有效的常驻指令"},
		"cli.run.no_task":         {EN: "no task given; usage: hermes run [flags] \"TASK\"", ZH: "没有给出任务；用法：hermes run [参数] \"任务\""},
		"cli.run.usage":           {EN: "usage: hermes run [flags] \"TASK\"", ZH: "用法：hermes run [参数] \"任务\""},
		"cli.resume.usage":        {EN: "usage: hermes resume [flags] RUN_ID (run `hermes runs` to see the runs)", ZH: "用法：hermes resume [参数] RUN_ID（运行 `hermes runs` 查看运行记录）"},
		"cli.run.bad_workspace":   {EN: "workspace %s is not a directory; pass an existing one with --workspace", ZH: "工作区 %s 不是目录；请用 --workspace 指定一个已存在的目录"},
		"cli.run.stopping":        {EN: "stopping at the next safe point… (press Ctrl-C again to cancel at once)", ZH: "将在下一个安全点停止…（再按一次 Ctrl-C 立即取消）"},
	}
}
