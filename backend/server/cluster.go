package server

import (
	"context"
	"net/http"

	"hermes/backend/api"
)

// clusterer is runs that include a cluster's ([cluster] nats_url): the
// window's and `hermes serve`'s over backend/cluster's Observer. Their
// runs list, events, controls and approvals reach the replicas through the
// same endpoints as this home's, behind the same guards.
type clusterer interface {
	ClusterStatus(ctx context.Context) api.ClusterStatus
}

// clusterStatus answers GET /api/cluster: the replicas, the tasks each
// runs and the queue's depth; {"enabled": false} without a cluster.
func (s *server) clusterStatus(w http.ResponseWriter, r *http.Request) {
	c, ok := s.runs.(clusterer)
	if !ok {
		writeJSON(w, http.StatusOK, api.ClusterStatus{Replicas: []api.ClusterReplica{}})
		return
	}
	writeJSON(w, http.StatusOK, c.ClusterStatus(r.Context()))
}
