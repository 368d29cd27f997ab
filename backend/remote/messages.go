package remote

import "hermes/backend/i18n"

func init() { i18n.Register(remoteMessages) }

func remoteMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"remote.attached": {
			EN: "attached to hermes %s (pid %d), which owns this home: its runs are shown and steered here",
			ZH: "已连接到持有此主目录的 hermes %s（进程 %d）：可在此查看和控制它的运行",
		},
		"remote.owner_gone": {
			EN: "the hermes %s (pid %d) that owns this home does not answer; start this one again to own the home",
			ZH: "持有此主目录的 hermes %s（进程 %d）没有应答；请重新启动本进程以接管主目录",
		},
	}
}
