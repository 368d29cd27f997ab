package cli

import "hermes/backend/i18n"

func init() { i18n.Register(configMessages) }

func configMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"cli.cmd.config": {EN: "write (init), check, locate (path) or print (show) hermes.toml", ZH: "写入（init）、检查（check）、定位（path）或显示（show）hermes.toml"},
		"cli.config.usage": {
			EN: "Usage: hermes config init [--home DIR] [--config FILE] [--force] [--lang en|zh-CN]\n" +
				"       hermes config check [--home DIR] [FILE]\n" +
				"       hermes config path [--home DIR]\n" +
				"       hermes config show [--home DIR] [--config FILE]",
			ZH: "用法：hermes config init [--home 目录] [--config 文件] [--force] [--lang en|zh-CN]\n" +
				"      hermes config check [--home 目录] [文件]\n" +
				"      hermes config path [--home 目录]\n" +
				"      hermes config show [--home 目录] [--config 文件]",
		},
		"cli.config.flag.config": {EN: "the config file (default HOME/hermes.toml)", ZH: "配置文件（默认 主目录/hermes.toml）"},
		"cli.config.flag.force":  {EN: "replace an existing file, keeping it as a .bak beside it", ZH: "替换已有文件，并在旁边保留 .bak 备份"},
		"cli.config.flag.lang":   {EN: "the language of the comments: en or zh-CN (default: the system's)", ZH: "注释的语言：en 或 zh-CN（默认跟随系统）"},
		"cli.config.extra_args":  {EN: "unexpected arguments: %s; see `hermes config --help`", ZH: "多余的参数：%s；参见 `hermes config --help`"},
		"cli.config.unknown":     {EN: "unknown subcommand %q of hermes config", ZH: "hermes config 没有子命令 %q"},
		"cli.config.wrote":       {EN: "wrote %s; every setting in it is commented out at its default", ZH: "已写入 %s；其中每项设置都以默认值注释列出"},
		"cli.config.backup":      {EN: "the old file is kept as %s", ZH: "旧文件已备份为 %s"},
		"cli.config.ok":          {EN: "%s is valid", ZH: "%s 有效"},
		"cli.config.warning":     {EN: "warning: %s", ZH: "警告：%s"},
		"cli.config.problems":    {EN: "%d problems; fix them and run `hermes config check` again", EN1: "%d problem; fix it and run `hermes config check` again", ZH: "共 %d 个问题；修正后请再次运行 `hermes config check`"},
		"cli.config.no_bot": {
			EN: `[agent] mode is "bot", but this build of hermes has no bot command; set mode to "desktop" or "cli", or use a build with the bot`,
			ZH: `[agent] mode 为 "bot"，但此 hermes 版本不含 bot 命令；请把 mode 改为 "desktop" 或 "cli"，或换用含机器人功能的版本`,
		},
	}
}
