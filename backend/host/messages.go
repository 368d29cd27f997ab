package host

import "hermes/backend/i18n"

func init() { i18n.Register(hostMessages) }

func hostMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"host.listen_failed": {
			EN: "could not listen on a loopback port for the local API (%v); check that 127.0.0.1 is available",
			ZH: "无法为本地 API 监听回环端口（%v）；请检查 127.0.0.1 是否可用",
		},
		"host.config_unwatched": {
			EN: "hermes.toml is not followed (%v): restart Hermes to apply an edit",
			ZH: "未能跟踪 hermes.toml（%v）：修改后请重启 Hermes 生效",
		},
		"host.cluster_unreachable": {
			EN: "%v; serving this home's runs only, without the cluster's (restart once NATS answers)",
			ZH: "%v；仅提供本目录的运行，不含集群的运行（NATS 可用后请重启）",
		},
		"host.update.not_ready": {EN: "no update is ready to install yet; wait for its download to finish", ZH: "还没有可安装的更新；请等待下载完成"},
		"host.update.failed": {
			EN: "the update could not be installed (%v); this version stays in place: restart Hermes to go on, or run `hermes update`",
			ZH: "更新安装失败（%v）；当前版本保持不变：请重启 Hermes 继续使用，或运行 `hermes update`",
		},
		"host.update.relaunch": {
			EN: "the update is installed, but the new version could not be started (%v); open Hermes again",
			ZH: "更新已安装，但无法启动新版本（%v）；请重新打开 Hermes",
		},
	}
}
