package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"hermes/backend/cli"
	"hermes/backend/cluster"
	"hermes/backend/cluster/clustertest"
	"hermes/backend/llm/llmtest"
	"hermes/backend/wecom/wecomtest"
)

// TestBot_ClusterStatusPrintsReplicasTasksAndQueue: two replicas run a
// held task each; `hermes bot --cluster-status` on a home with the same
// [cluster] prints both replicas with their tasks and the queue, as a table
// and as JSON, and exits 0.
func TestBot_ClusterStatusPrintsReplicasTasksAndQueue(t *testing.T) {
	nats := clustertest.Start(t)
	wecom := wecomtest.NewServer(t, clustertest.CorpID, clustertest.Secret, 0)
	release := make(chan struct{})
	model := llmtest.NewFuncServer(t, func(req llmtest.Request) llmtest.Step {
		return llmtest.Step{Content: wecomtest.Answer(req), Wait: release}
	})
	var rs []*clustertest.Replica
	for _, name := range []string{"replica-a", "replica-b"} {
		rs = append(rs, clustertest.StartReplica(t, clustertest.ReplicaOptions{
			Name: name, NATSURL: nats.URL, Model: model.URL, Bot: clustertest.BotConfig(wecom),
		}))
	}
	defer close(release)
	for i, user := range []string{"alice", "bob"} {
		if status, _, err := rs[i].CB.Text(user, "msg-"+user, "u0-m0 please"); err != nil || status != 200 {
			t.Fatalf("callback: %d %v", status, err)
		}
	}
	clustertest.WaitReplicas(t, nats.URL, func(m map[string]cluster.Replica) bool {
		return len(m) == 2 && slices.Equal(clustertest.Running(m), []string{"alice", "bob"})
	})

	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte("[cluster]\nnats_url = \""+nats.URL+"\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut := &botOutput{}, &botOutput{}
	if c := cli.Main(t.Context(), botEnv(out, errOut), []string{"bot", "--cluster-status", "--home", home}); c != cli.ExitOK {
		t.Fatalf("exit %d:\n%s", c, errOut)
	}
	table := out.String()
	for _, want := range []string{"REPLICA", "TASKS RUNNING", "replica-a", "replica-b", "alice (", "bob (", "queue: 0 waiting, 2 being run, 0 redelivered"} {
		if !strings.Contains(table, want) {
			t.Fatalf("the status lacks %q:\n%s", want, table)
		}
	}

	out = &botOutput{}
	if c := cli.Main(t.Context(), botEnv(out, errOut), []string{"bot", "--home", home, "--cluster-status", "--json"}); c != cli.ExitOK {
		t.Fatalf("exit %d:\n%s", c, errOut)
	}
	var st cluster.Status
	if err := json.Unmarshal([]byte(out.String()), &st); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if len(st.Replicas) != 2 || st.Queue.Running != 2 || time.Since(st.Replicas[0].LastSeen) > time.Minute {
		t.Fatalf("JSON status %+v", st)
	}
}

// TestBot_ClusterStatusWithoutCluster says how to turn the cluster on and
// exits 2.
func TestBot_ClusterStatusWithoutCluster(t *testing.T) {
	home := t.TempDir()
	out, errOut := &botOutput{}, &botOutput{}
	if c := cli.Main(t.Context(), botEnv(out, errOut), []string{"bot", "--cluster-status", "--home", home}); c != cli.ExitUsage {
		t.Fatalf("exit %d; want %d:\n%s", c, cli.ExitUsage, errOut)
	}
	if !strings.Contains(errOut.String(), "set [cluster] nats_url") {
		t.Fatalf("it does not say how to turn the cluster on:\n%s", errOut)
	}
}
