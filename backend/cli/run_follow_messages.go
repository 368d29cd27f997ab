package cli

import "hermes/backend/i18n"

func init() {
	i18n.Register(map[string]i18n.Msg{
		"cli.run.owner_flags": {
			EN: "hermes %s (pid %d) owns this home, so the run goes on there, with its config: --config and --vault cannot apply; set them in hermes.toml, or stop that process first",
			ZH: "此主目录由 hermes %s（进程 %d）持有，运行将在那里进行并使用它的配置：--config 和 --vault 无法生效；请在 hermes.toml 中设置，或先停止该进程",
		},
		"cli.run.owner_stopping": {
			EN: "asked the owner to stop the run at its next safe point… (press Ctrl-C again to stop watching)",
			ZH: "已请求持有者在下一个安全点停止运行…（再按一次 Ctrl-C 停止观看）",
		},
		"cli.run.owner_detached": {
			EN: "stopped watching; run %s stops in the owner at its next safe point",
			ZH: "已停止观看；运行 %s 将在持有者进程中于下一个安全点停止",
		},
		"cli.run.owner_approval": {
			EN: "the run waits for approval of %s: answer it in the window or browser of the owner, or run with --yes",
			ZH: "运行正在等待对 %s 的审批：请在持有者的窗口或浏览器中回答，或使用 --yes 运行",
		},
	})
}
