package app

import "hermes/backend/i18n"

func init() { i18n.Register(desktopMessages) }

func desktopMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"desktop.link.refused": {
			EN: "the window opens only web, mail and obsidian:// links in the system; copy %q and open it yourself if you trust it",
			ZH: "窗口只会用系统打开网页、邮件和 obsidian:// 链接；如果你信任 %q，请复制后自行打开",
		},
		"desktop.folder.failed": {
			EN: "the system's folder dialog did not open (%v); type the folder's path instead",
			ZH: "系统的文件夹对话框未能打开（%v）；请直接输入文件夹路径",
		},
	}
}
