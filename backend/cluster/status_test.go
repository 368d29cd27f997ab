package cluster_test

import (
	"slices"
	"sync"
	"testing"
	"time"

	"hermes/backend/cluster"
	"hermes/backend/cluster/clustertest"
	"hermes/backend/config"
	"hermes/backend/llm/llmtest"
	"hermes/backend/wecom/wecomtest"
)

// TestStatus_ReplicasTheirTasksAndTheQueue: two replicas run two held
// tasks; the status shows both replicas, the tasks with their users, and
// the queue's two tasks being run. A replica cut off from NATS leaves the
// list once its announcement ages out; one shut down withdraws it.
func TestStatus_ReplicasTheirTasksAndTheQueue(t *testing.T) {
	wecom := wecomtest.NewServer(t, "ww0123456789abcdef", "corp-secret-5f1e9d2c7b3a", 0)
	release := make(chan struct{})
	model := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		return llmtest.Step{Content: wecomtest.Answer(req), Wait: release}
	})
	url, rs := startReplicas(t, 2, wecom, 0, model, 1500*time.Millisecond)
	var releaseOnce sync.Once
	releaseAll := func() { releaseOnce.Do(func() { close(release) }) }
	defer releaseAll()
	clustertest.WaitReplicas(t, url, func(m map[string]cluster.Replica) bool { return len(m) == 2 })
	for i, user := range []string{"alice", "bob"} {
		if status, _, err := rs[i].CB.Text(user, "msg-"+user, "u0-m0 please"); err != nil || status != 200 {
			t.Fatalf("callback: %d %v", status, err)
		}
	}
	clustertest.WaitReplicas(t, url, func(m map[string]cluster.Replica) bool {
		return slices.Equal(clustertest.Running(m), []string{"alice", "bob"})
	})
	st, err := cluster.ReadStatus(t.Context(), cluster.Options{Config: config.Cluster{NATSURL: url}})
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Replicas) != 2 || st.Replicas[0].ID != "replica-0" || st.Replicas[1].ID != "replica-1" {
		t.Fatalf("replicas %+v; want replica-0 and replica-1", st.Replicas)
	}
	var users []string
	for _, r := range st.Replicas {
		if r.PID == 0 || r.Host == "" || r.Started.IsZero() || r.LastSeen.Before(r.Started) {
			t.Fatalf("replica %+v lacks its host, pid or times", r)
		}
		for _, task := range r.Tasks {
			users = append(users, task.User)
			if task.ID == "" || task.Seq == 0 || task.Started.IsZero() {
				t.Fatalf("task %+v lacks its message id, sequence or start", task)
			}
		}
	}
	slices.Sort(users)
	if !slices.Equal(users, []string{"alice", "bob"}) {
		t.Fatalf("tasks run by %v; want alice and bob", users)
	}
	if st.Queue.Running != 2 || st.Queue.Waiting != 0 {
		t.Fatalf("queue %+v; want 2 running, none waiting", st.Queue)
	}

	rs[1].Die()
	clustertest.WaitReplicas(t, url, func(m map[string]cluster.Replica) bool {
		_, there := m["cmVwbGljYS0x"] // replica-1's key
		return len(m) == 1 && !there
	})
	st, err = cluster.ReadStatus(t.Context(), cluster.Options{Config: config.Cluster{NATSURL: url}})
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Replicas) != 1 || st.Replicas[0].ID != "replica-0" {
		t.Fatalf("after replica-1 died the status lists %+v", st.Replicas)
	}

	// A replica shut down withdraws its announcement.
	releaseAll()
	rs[0].Close()
	clustertest.WaitReplicas(t, url, func(m map[string]cluster.Replica) bool { return len(m) == 0 })
}

// TestStatus_EmptyCluster: a cluster no replica has joined has no
// replicas and an empty queue.
func TestStatus_EmptyCluster(t *testing.T) {
	srv := clustertest.Start(t).URL
	st, err := cluster.ReadStatus(t.Context(), cluster.Options{Config: config.Cluster{NATSURL: srv}})
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Replicas) != 0 || st.Queue != (cluster.Queue{}) {
		t.Fatalf("status %+v; want nothing", st)
	}
}
