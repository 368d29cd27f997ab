package cli

import "hermes/backend/i18n"

func init() { i18n.Register(runFollowMessages) }

func runFollowMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"cli.run.owner_flags": {
			EN: "hermes %s (pid %d) owns this home, so the run goes on there, with its config: --config and --vault cannot apply; set them in hermes.toml, or stop that process first",
			ZH: "此主目录由 hermes %s（进程 %d）持有，运行将在那里进行并使用它的配置：--config 和 --vault 无法生效；请在 hermes.toml 中设置，或先停止该进程",
		},
		"cli.run.owner_approval": {
			EN: "the run waits for approval of %s: answer it in the window or browser of the owner, or run with --yes",
			ZH: "运行正在等待对 %s 的审批：请在持有者的窗口或浏览器中回答，或使用 --yes 运行",
		},
		"cli.run.owner_question": {
			EN: "the model asks for the %s of %s: answer it in the window or browser of the owner, or run in a terminal",
			ZH: "模型询问 %[2]s 的参数 %[1]s：请在持有者的窗口或浏览器中回答，或在终端中运行",
		},
		"cli.run.others_live": {
			EN:  "%d runs started here by other Hermes processes go on; this process keeps the home until they end (press Ctrl-C to stop them at their next safe point)",
			EN1: "%d run started here by another Hermes process goes on; this process keeps the home until it ends (press Ctrl-C to stop it at its next safe point)",
			ZH:  "其他 Hermes 进程在此启动的 %d 个运行仍在进行；本进程会持有主目录直到它们结束（按 Ctrl-C 让它们在下一个安全点停止）",
		},
		"cli.approve.yes_escaping": {
			EN: "%s asked to run outside the OS sandbox, which --yes does not approve, so it was denied; run without --yes to approve it yourself",
			ZH: "%s 请求在系统沙箱之外运行，--yes 不会批准这种请求，因此已被拒绝；如需亲自批准，请不带 --yes 运行",
		},
		// What the model reads of a call escaping the sandbox under --yes.
		"cli.approve.yes_escaping_model": {
			EN: "running outside the OS sandbox needs a person's approval, which --yes does not give; run it inside the sandbox",
			ZH: "在系统沙箱之外运行需要有人批准，而 --yes 不会批准；请在沙箱内运行",
		},
		// What the model reads of a call denied for want of a terminal.
		"cli.approve.no_one": {
			EN: "no one is at the terminal to approve it; allow the tool in [tools] policy, or run with --yes, to let it run",
			ZH: "终端前无人可以批准；如需运行，请在 [tools] policy 中允许该工具，或使用 --yes",
		},
	}
}
