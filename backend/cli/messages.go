package cli

import "hermes/backend/i18n"

func init() { i18n.Register(cliMessages) }

func cliMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"cli.usage":           {EN: "Usage: hermes [--home DIR] [--new-window] (opens the desktop app) | hermes COMMAND [flags]\nCommands:", ZH: "用法：hermes [--home 目录] [--new-window]（打开桌面应用）| hermes 命令 [参数]\n命令："},
		"cli.unknown_command": {EN: "unknown command %q; run `hermes help` to see the commands", ZH: "未知命令 %q；运行 `hermes help` 查看可用命令"},
		"cli.no_desktop":      {EN: "this build of hermes has no desktop window (built with -tags headless); use `hermes run`, `hermes runs` or `hermes serve`", ZH: "此 hermes 版本不含桌面窗口（以 -tags headless 构建）；请使用 `hermes run`、`hermes runs` 或 `hermes serve`"},
		"cli.no_window":       {EN: "this hermes is the terminal's build, and no window build is installed with it (looked for %s and %s); use `hermes run`, `hermes runs` or `hermes serve`, or install the .deb or the tar.gz for the window", ZH: "此 hermes 为终端版本，且未找到随附的窗口版本（已查找 %s 和 %s）；请使用 `hermes run`、`hermes runs` 或 `hermes serve`，或安装 .deb 或 tar.gz 以使用窗口"},
		"cli.error":           {EN: "error: %s", ZH: "错误：%s"},
		"cli.usage_of":        {EN: "usage: %s [flags]", ZH: "用法：%s [参数]"},
		"cli.flag_unknown":    {EN: "unknown flag --%s; the flags are listed below", ZH: "未知参数 --%s；可用参数列在下面"},
		"cli.flag_value":      {EN: "invalid value %q for --%s", ZH: "参数 --%[2]s 的值 %[1]q 无效"},
		"cli.flag_no_value":   {EN: "flag --%s needs a value", ZH: "参数 --%s 需要一个值"},
		"cli.flag_syntax":     {EN: "bad flag syntax: %s", ZH: "参数写法有误：%s"},
		"cli.bad_limit":       {EN: "--limit must be 0 (all) or more, not %d", ZH: "--limit 必须为 0（全部）或更大，而不是 %d"},
		"cli.flag.home":       {EN: "Hermes home directory (default $HERMES_HOME, else ~/.hermes)", ZH: "Hermes 主目录（默认 $HERMES_HOME，否则 ~/.hermes）"},
		"cli.flag.new_window": {EN: "open a window of its own, though a window already shows this home (which is otherwise brought to the front)", ZH: "即使已有窗口显示该主目录，也另开一个窗口（否则会把已有窗口调到最前面）"},
		"cli.cmd.run":         {EN: "run one task and show every iteration live", ZH: "运行一个任务并实时显示每一轮迭代"},
		"cli.cmd.resume":      {EN: "continue a stopped or crashed run from its last checkpoint", ZH: "从最后的检查点继续一个已停止或崩溃的运行"},
		"cli.cmd.runs":        {EN: "list runs; `runs show RUN_ID` prints a run's timeline", ZH: "列出运行记录；`runs show RUN_ID` 打印某次运行的时间线"},
		"cli.cmd.serve":       {EN: "serve the web UI and the local API in a browser", ZH: "在浏览器中提供网页界面和本地 API"},
		"cli.cmd.version":     {EN: "print the version", ZH: "打印版本号"},
	}
}
