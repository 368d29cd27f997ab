package cli

import "hermes/backend/i18n"

func init() { i18n.Register(botMessages) }

func botMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"cli.cmd.bot": {EN: "serve the chat bot ([bot] in hermes.toml: WeCom, Feishu/Lark, or a generic webhook)", ZH: "运行聊天机器人（hermes.toml 的 [bot]：企业微信、飞书/Lark 或通用 webhook）"},
		"cli.bot.usage": {
			EN: "usage: hermes bot [--home DIR] [--config FILE] [--listen ADDR]\n       hermes bot --cluster-status [--json] [--home DIR] [--config FILE]",
			ZH: "用法：hermes bot [--home 目录] [--config 文件] [--listen 地址]\n      hermes bot --cluster-status [--json] [--home 目录] [--config 文件]",
		},
		"cli.bot.flag.listen": {EN: "address to listen on, over [bot] listen (default 127.0.0.1:8700)", ZH: "监听地址，覆盖 [bot] listen（默认 127.0.0.1:8700）"},
		"cli.bot.extra_args":  {EN: "hermes bot takes no arguments, got %q; the settings are under [bot] in hermes.toml", ZH: "hermes bot 不接受参数，收到 %q；设置请写在 hermes.toml 的 [bot] 中"},
		"cli.bot.status_arg":  {EN: "hermes bot takes no arguments, got %q; for the replicas and their queue run `hermes bot --cluster-status`", ZH: "hermes bot 不接受参数，收到 %q；查看副本及其队列请运行 `hermes bot --cluster-status`"},
		"cli.bot.listen_failed": {
			EN: "could not listen on %s (%v); choose another address with --listen or [bot] listen",
			ZH: "无法监听 %s（%v）；请用 --listen 或 [bot] listen 换一个地址",
		},
		"cli.bot.listening": {
			EN: "Hermes bot (%s) is taking callbacks at %s (home %s); the window or `hermes serve` on this home attaches to it and shows its runs; press Ctrl-C to stop",
			ZH: "Hermes 机器人（%s）正在 %s 接收回调（主目录 %s）；在此主目录打开的窗口或 `hermes serve` 会连接到它并显示它的运行；按 Ctrl-C 停止",
		},
		"cli.bot.home_owned": {
			EN: "hermes %s (pid %d) has %s open; the bot must own the home it serves: close that window or stop that `hermes serve` (Ctrl-C), start the bot, then open the window again — it attaches to the bot; or give the bot a home of its own with --home",
			ZH: "hermes %s（进程 %d）已打开 %s；机器人必须独占它服务的主目录：请先关闭该窗口或停止该 `hermes serve`（Ctrl-C），启动机器人后再打开窗口——窗口会连接到机器人；或用 --home 给机器人单独的主目录",
		},
		"cli.bot.failed":   {EN: "the bot's server stopped: %v", ZH: "机器人服务已停止：%v"},
		"cli.bot.stopping": {EN: "stopping: running tasks stop at their next safe point (press Ctrl-C again to cut them short)", ZH: "正在停止：进行中的任务将在下一个安全点停止（再按一次 Ctrl-C 立即中断）"},
		"cli.bot.cut_short": {
			EN: "not everything finished in time: %v; `hermes resume RUN_ID` takes a cut task up again",
			ZH: "部分工作未能及时完成：%v；可用 `hermes resume 运行ID` 继续被中断的任务",
		},
		"cli.bot.stopped": {EN: "the bot has stopped", ZH: "机器人已停止"},
		"cli.bot.config_applied": {
			EN: "hermes.toml changed: the next task uses the new settings, with the vault, skills and MCP servers they name; a task already going keeps its tools",
			ZH: "hermes.toml 已修改：下一个任务将使用新设置，包括其中的笔记库、技能和 MCP 服务器；进行中的任务保留原来的工具",
		},
		"cli.bot.model_kept": {
			EN: "hermes.toml changed, but what it now names cannot be used (the model, or the vault), so tasks keep the previous [agent], [model], [context] and tools; fix the setting the error names and save again",
			ZH: "hermes.toml 已修改，但其中的设置无法使用（模型或笔记库），任务将沿用之前的 [agent]、[model]、[context] 和工具；请按错误提示修改后再次保存",
		},
		"cli.bot.config_restart": {
			EN: "hermes.toml changed [bot] %s, which takes effect when hermes bot restarts; the other changes are applied",
			ZH: "hermes.toml 修改了 [bot] %s，需重启 hermes bot 才生效；其他修改已生效",
		},
		"cli.bot.flag.cluster_status": {EN: "print the replicas of [cluster], the tasks each runs and the queue, then exit", ZH: "显示 [cluster] 的各个副本、每个副本运行的任务和队列，然后退出"},
		"cli.bot.flag.json":           {EN: "with --cluster-status: print it as JSON", ZH: "与 --cluster-status 一起使用：以 JSON 输出"},
		"cli.bot.status.off": {
			EN: "%s has no [cluster] nats_url, so this bot runs alone; to run several replicas sharing NATS JetStream, set [cluster] nats_url (see docs/cluster.md)",
			ZH: "%s 没有设置 [cluster] nats_url，机器人以单进程运行；要让多个副本通过 NATS JetStream 共享状态，请设置 [cluster] nats_url（见 docs/cluster.md）",
		},
		"cli.bot.status.no_replicas":   {EN: "no replica is taking tasks (start `hermes bot` with this [cluster])", ZH: "没有副本在接收任务（请用此 [cluster] 启动 `hermes bot`）"},
		"cli.bot.status.col.replica":   {EN: "REPLICA", ZH: "副本"},
		"cli.bot.status.col.host":      {EN: "HOST", ZH: "主机"},
		"cli.bot.status.col.pid":       {EN: "PID", ZH: "进程"},
		"cli.bot.status.col.up_since":  {EN: "UP SINCE", ZH: "启动于"},
		"cli.bot.status.col.last_seen": {EN: "LAST SEEN", ZH: "最近报告"},
		"cli.bot.status.col.tasks":     {EN: "TASKS RUNNING", ZH: "运行中的任务"},
		"cli.bot.status.task":          {EN: "%s (%v)", ZH: "%s（%v）"},
		"cli.bot.status.ago":           {EN: "%v ago", ZH: "%v 前"},
		"cli.bot.status.queue": {
			EN: "queue: %d waiting, %d being run, %d redelivered",
			ZH: "队列：%d 个等待，%d 个运行中，%d 个重新投递",
		},
		"cli.bot.config_kept": {EN: "hermes.toml has a problem; the last good config stays in force", ZH: "hermes.toml 有问题；继续使用上一份有效配置"},
	}
}
