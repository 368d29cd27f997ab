package app

import (
	"context"

	"hermes/backend/api"
)

// clusterer is runs over a cluster's replicas (backend/cluster).
type clusterer interface {
	ClusterStatus(ctx context.Context) api.ClusterStatus
}

// ClusterStatus is the bot replicas of [cluster] nats_url, the tasks each
// runs and the queue's depth, as GET /api/cluster answers; Enabled is
// false without a cluster.
func (a *App) ClusterStatus() api.ClusterStatus {
	if c, ok := a.runs.(clusterer); ok {
		return c.ClusterStatus(a.context())
	}
	return api.ClusterStatus{Replicas: []api.ClusterReplica{}}
}
