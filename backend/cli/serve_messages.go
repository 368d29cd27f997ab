package cli

import "hermes/backend/i18n"

func init() { i18n.Register(serveMessages) }

func serveMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"cli.serve.usage": {EN: "usage: hermes serve [--home DIR] [--listen 127.0.0.1:7777] [--new-token]", ZH: "用法：hermes serve [--home 目录] [--listen 127.0.0.1:7777] [--new-token]"},
		"cli.serve.flag.new_token": {
			EN: "replace the home's access token (HOME/hermes.token) with a new one: browsers let in before must open the new URL",
			ZH: "用新的访问令牌替换主目录中的令牌（HOME/hermes.token）：此前已登录的浏览器须打开新的网址",
		},
		"cli.serve.flag.listen": {EN: "address to listen on; keep it on loopback (127.0.0.1) unless others should see your runs", ZH: "监听地址；除非希望他人看到你的运行记录，否则请保持在回环地址（127.0.0.1）"},
		"cli.serve.extra_args":  {EN: "hermes serve takes no arguments, got %q; use --home and --listen", ZH: "hermes serve 不接受参数，收到 %q；请使用 --home 和 --listen"},
		"cli.serve.listen_failed": {
			EN: "could not listen on %s (%v); choose another address with --listen, such as --listen 127.0.0.1:7788",
			ZH: "无法监听 %s（%v）；请用 --listen 换一个地址，例如 --listen 127.0.0.1:7788",
		},
		"cli.serve.listening": {
			EN: "Hermes is serving %s (runs from %s); open this URL, which carries the access token; press Ctrl-C to stop",
			ZH: "Hermes 正在提供 %s（运行记录来自 %s）；请打开这个带有访问令牌的网址；按 Ctrl-C 停止",
		},
		"cli.serve.stopping_runs": {
			EN:  "stopping %d live runs at their next safe point (press Ctrl-C again to cancel them at once)",
			EN1: "stopping %d live run at its next safe point (press Ctrl-C again to cancel it at once)",
			ZH:  "正在让 %d 个进行中的运行在下一个安全点停止（再按一次 Ctrl-C 立即取消）",
		},
		"cli.serve.runs_cancelled": {
			EN: "some runs did not reach a safe point in time and were cancelled; `hermes resume RUN_ID` redoes their last iteration",
			ZH: "部分运行未能及时到达安全点，已被取消；`hermes resume 运行ID` 会重做它们的最后一轮迭代",
		},
		"cli.serve.not_loopback": {
			EN: "warning: listening on %s, which is not loopback: anyone who can reach this address can read your runs",
			ZH: "警告：正在监听非回环地址 %s：任何能访问该地址的人都能读取你的运行记录",
		},
		"cli.serve.no_ui": {
			EN: "note: this build has no web UI, only the API; build it with scripts/app.sh or -tags ui",
			ZH: "注意：此版本不含网页界面，只有 API；请用 scripts/app.sh 或 -tags ui 构建",
		},
		"cli.serve.cluster": {
			EN: "attached to the cluster of [cluster] nats_url: the replicas' live runs are listed beside this home's, and can be paused, steered, stopped and approved here",
			ZH: "已连接 [cluster] nats_url 的集群：各副本进行中的运行与本目录的运行一同列出，并可在此暂停、引导、停止和审批",
		},
		"cli.serve.failed":  {EN: "the server stopped: %v", ZH: "服务器已停止：%v"},
		"cli.serve.stopped": {EN: "stopped", ZH: "已停止"},
	}
}
