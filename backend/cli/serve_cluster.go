package cli

import (
	"fmt"
	"os"

	"hermes/backend/cluster"
	"hermes/backend/i18n"
)

func init() { i18n.Register(serveClusterMessages) }

func serveClusterMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"cli.serve.cluster_unreachable": {
			EN: "%v; serving this home's runs only (restart hermes serve once NATS answers)",
			ZH: "%v；仅提供本目录的运行（NATS 可用后请重启 hermes serve）",
		},
		"cli.serve.cluster": {
			EN: "attached to the cluster of [cluster] nats_url: the replicas' live runs are listed beside this home's, and can be paused, steered, stopped and approved here",
			ZH: "已连接 [cluster] nats_url 的集群：各副本进行中的运行与本目录的运行一同列出，并可在此暂停、引导、停止和审批",
		},
	}
}

// observeCluster attaches `hermes serve` to the cluster of the home's
// [cluster] nats_url as an observer (it takes no tasks): nil without one.
func observeCluster(env *Env, home string) (*cluster.Observer, error) {
	host, _ := os.Hostname()
	return cluster.ObserveHome(home, env.Getenv, fmt.Sprintf("hermes-serve %s/%d", host, os.Getpid()), env.Version)
}
