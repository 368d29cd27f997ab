package cluster

import "hermes/backend/i18n"

func init() { i18n.Register(clusterMessages) }

func clusterMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"cluster.connect": {
			EN: "cannot connect to NATS (%v); check [cluster] nats_url and nats_token_env or nats_creds in hermes.toml, and that the servers run",
			ZH: "无法连接 NATS（%v）；请检查 hermes.toml 中 [cluster] 的 nats_url 以及 nats_token_env 或 nats_creds，并确认服务器在运行",
		},
		"cluster.setup": {
			EN: "JetStream refused the bot's buckets or task stream (%v); start the NATS servers with JetStream on (-js) and keep [cluster] replicas no more than the servers",
			ZH: "JetStream 拒绝创建机器人的存储桶或任务流（%v）；请以开启 JetStream 的方式（-js）启动 NATS 服务器，并确保 [cluster] replicas 不超过服务器数量",
		},
		"cluster.replica_gone": {
			EN: "the replica %q that runs this run does not answer; it may have stopped (its task then goes to another replica): check `hermes bot --cluster-status`, then try again",
			ZH: "运行此任务的副本 %q 没有响应，可能已停止（其任务会交给其他副本）：请用 `hermes bot --cluster-status` 查看后重试",
		},
		"cluster.status": {
			EN: "JetStream did not give the cluster's status (%v); check that the NATS servers run, then try again",
			ZH: "JetStream 没有返回集群状态（%v）；请确认 NATS 服务器在运行后重试",
		},
	}
}
