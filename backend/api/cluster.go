package api

import "time"

// ClusterStatus answers GET /api/cluster: the `hermes bot` replicas that
// share the cluster of [cluster] nats_url, the tasks each runs and the
// task queue's depth, as `hermes bot --cluster-status` shows them.
// Enabled is false, and the rest empty, without [cluster] nats_url.
type ClusterStatus struct {
	Enabled  bool             `json:"enabled"`
	Replicas []ClusterReplica `json:"replicas"`
	Queue    ClusterQueue     `json:"queue"`
	// Error says why the status could not be read (NATS unreachable).
	Error *Error `json:"error,omitempty"`
}

// ClusterReplica is one replica as it announces itself.
type ClusterReplica struct {
	ID       string        `json:"id"`
	Host     string        `json:"host"`
	PID      int           `json:"pid"`
	Version  string        `json:"version,omitempty"`
	Started  time.Time     `json:"started"`
	LastSeen time.Time     `json:"last_seen"`
	Tasks    []ClusterTask `json:"tasks"`
}

// ClusterTask is a chat task a replica runs.
type ClusterTask struct {
	User    string    `json:"user"`
	ID      string    `json:"id,omitempty"` // the platform's message id
	Seq     uint64    `json:"seq"`          // the task's sequence in the queue
	Started time.Time `json:"started"`
}

// ClusterQueue is the task queue's depth.
type ClusterQueue struct {
	Waiting     uint64 `json:"waiting"`
	Running     int    `json:"running"`
	Redelivered int    `json:"redelivered"`
}
