package sandbox

import "hermes/backend/i18n"

func init() { i18n.Register(sandboxMessages) }

func sandboxMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"sandbox.why.off": {
			EN: `[tools] sandbox is "off": commands can do whatever you can; set it to "workspace" to confine them`,
			ZH: `[tools] sandbox 为 "off"：命令可以做你能做的任何事；设为 "workspace" 即可限制它们`,
		},
		"sandbox.why.no_landlock": {
			EN: "this Linux kernel has no Landlock (it needs 5.13 or later with landlock among its security modules, lsm=): commands run as you and every one is asked about",
			ZH: "此 Linux 内核没有 Landlock（需要 5.13 或更高版本，且安全模块 lsm= 中包含 landlock）：命令以你的身份运行，每条都需审批",
		},
		"sandbox.why.windows": {
			EN: "Hermes has no sandbox on Windows yet: commands run as you and every one is asked about",
			ZH: "Hermes 在 Windows 上暂无沙箱：命令以你的身份运行，每条都需审批",
		},
		"sandbox.why.other": {
			EN: "Hermes has no sandbox on %s: commands run as you and every one is asked about",
			ZH: "Hermes 在 %s 上没有沙箱：命令以你的身份运行，每条都需审批",
		},
		"sandbox.why.no_seatbelt": {
			EN: "this Mac has no /usr/bin/sandbox-exec: commands run as you and every one is asked about",
			ZH: "此 Mac 没有 /usr/bin/sandbox-exec：命令以你的身份运行，每条都需审批",
		},
		"sandbox.gap.refer": {
			EN: "this kernel's Landlock (before ABI 2) refuses moving or linking files between folders, even in the workspace",
			ZH: "此内核的 Landlock（ABI 2 之前）不允许在文件夹之间移动或链接文件，工作区内也不行",
		},
		"sandbox.gap.truncate": {
			EN: "this kernel's Landlock (before ABI 3) does not stop truncating files outside the workspace",
			ZH: "此内核的 Landlock（ABI 3 之前）无法阻止截断工作区外的文件",
		},
		"sandbox.gap.signals": {
			EN: "this kernel's Landlock (before ABI 6) does not stop commands from signalling your other programs",
			ZH: "此内核的 Landlock（ABI 6 之前）无法阻止命令向你的其他程序发送信号",
		},
		"sandbox.gap.session": {
			EN: "a process that starts a session of its own may outlive its command",
			ZH: "自行创建会话的进程可能在命令结束后继续运行",
		},
	}
}
