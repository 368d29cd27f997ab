package host

import (
	"context"
	"fmt"
	"os"

	"hermes/backend/cluster"
	"hermes/backend/config"
	"hermes/backend/i18n"
)

// observeCluster puts the live runs of the cluster of hermes.toml's
// [cluster] nats_url beside the home's, when it names one and it answers.
func (h *Host) observeCluster(mode Mode, o Options, warn func(error)) {
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	machine, _ := os.Hostname()
	ob, err := cluster.ObserveHome(h.home, getenv, fmt.Sprintf("hermes-%s %s/%d", mode, machine, os.Getpid()), o.Version)
	if err != nil {
		warn(i18n.Wrap(err, "host.cluster_unreachable", err))
		return
	}
	if ob != nil {
		h.cluster = ob
		h.runs = ob.Merge(h.runs)
	}
}

// join makes the owner one replica of the cluster of [cluster] nats_url in
// the config it follows, when it names one: the replicas share what the
// bot keeps (Replica), and the cluster's observers see and steer the
// Manager's runs.
func (h *Host) join(ctx context.Context, o Options) error {
	path := o.ConfigPath
	if path == "" {
		path = config.Path(h.home)
	}
	cfg, err := config.Load(path)
	if err != nil {
		return err
	}
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if cfg = cfg.ResolveEnv(getenv); !cfg.Cluster.Enabled() {
		return nil
	}
	machine, _ := os.Hostname()
	cl, err := cluster.Open(ctx, cluster.Options{Config: cfg.Cluster, Name: fmt.Sprintf("hermes-%s %s/%d", h.mode, machine, os.Getpid()), Version: o.Version})
	if err != nil {
		return err
	}
	stop, err := cl.ServeRuns(h.manager)
	if err != nil {
		cl.Close()
		return err
	}
	h.replica, h.stopReplica = cl, stop
	return nil
}

// Replica is the cluster this owner joined as one replica (Options.Cluster
// in mode Bot), nil without one. It stays open until Close, after the
// Service and the runs have stopped.
func (h *Host) Replica() *cluster.Cluster { return h.replica }

// ObservesCluster reports whether Runs have the cluster's live runs beside
// the home's (Options.Cluster).
func (h *Host) ObservesCluster() bool { return h.cluster != nil }
