package cli

import (
	"fmt"
	"os"

	"hermes/backend/cluster"
	"hermes/backend/config"
	"hermes/backend/i18n"
)

func init() {
	i18n.Register(map[string]i18n.Msg{
		"cli.serve.cluster": {
			EN: "attached to the cluster of [cluster] nats_url: the replicas' live runs are listed beside this home's, and can be paused, steered, stopped and approved here",
			ZH: "已连接 [cluster] nats_url 的集群：各副本进行中的运行与本目录的运行一同列出，并可在此暂停、引导、停止和审批",
		},
	})
}

// observeCluster attaches `hermes serve` to the cluster of the home's
// [cluster] nats_url as an observer (it takes no tasks): nil without one.
// A hermes.toml that cannot be read attaches to none; the served home's
// notices say what is wrong with it.
func observeCluster(env *Env, home string) (*cluster.Observer, error) {
	cfg, err := config.Load(config.Path(home))
	if err != nil {
		return nil, nil
	}
	cfg = cfg.ResolveEnv(env.Getenv)
	if !cfg.Cluster.Enabled() {
		return nil, nil
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	host, _ := os.Hostname()
	return cluster.Observe(cluster.Options{Config: cfg.Cluster, Name: fmt.Sprintf("hermes-serve %s/%d", host, os.Getpid()), Version: env.Version})
}
