package cli

import "hermes/backend/i18n"

func init() { i18n.Register(signalMessages) }

func signalMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"cli.signal.again": {
			EN: "%s again: exiting at once; a run cut short resumes from its last checkpoint (hermes runs lists it, hermes resume RUN_ID goes on)",
			ZH: "再次收到 %s：立即退出；被中断的运行可从最后的检查点继续（hermes runs 列出它，hermes resume RUN_ID 继续）",
		},
		"cli.signal.after_term": {
			EN: "Ctrl-C after SIGTERM: exiting at once; a run cut short resumes from its last checkpoint (hermes runs lists it, hermes resume RUN_ID goes on)",
			ZH: "收到 SIGTERM 后又按了 Ctrl-C：立即退出；被中断的运行可从最后的检查点继续（hermes runs 列出它，hermes resume RUN_ID 继续）",
		},
		"cli.signal.busy": {
			EN: "Ctrl-C again while Hermes was busy and had not yet taken the first: exiting at once; a run cut short resumes from its last checkpoint (hermes runs lists it, hermes resume RUN_ID goes on)",
			ZH: "Hermes 正忙、尚未处理上一次 Ctrl-C 时又按了 Ctrl-C：立即退出；被中断的运行可从最后的检查点继续（hermes runs 列出它，hermes resume RUN_ID 继续）",
		},
		"cli.signal.stopping": {
			EN: "stopping on SIGTERM; Hermes exits at once if not stopped %s after it, or at another SIGTERM or Ctrl-C",
			ZH: "收到 SIGTERM，正在停止；若 %s 后仍未停止，或再次收到 SIGTERM 或 Ctrl-C，Hermes 将立即退出",
		},
		"cli.signal.busy_hint": {
			EN: "Hermes is busy and has not yet taken Ctrl-C; press Ctrl-C again to exit at once",
			ZH: "Hermes 正忙，尚未处理 Ctrl-C；再按一次 Ctrl-C 立即退出",
		},
		"cli.signal.late": {
			EN: "not stopped %s after the signal to stop: exiting at once; a run cut short resumes from its last checkpoint (hermes runs lists it, hermes resume RUN_ID goes on)",
			ZH: "收到停止信号 %s 后仍未停止：立即退出；被中断的运行可从最后的检查点继续（hermes runs 列出它，hermes resume RUN_ID 继续）",
		},
	}
}
