package app_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"hermes/app"
	"hermes/backend/agent"
	"hermes/backend/cluster"
	"hermes/backend/cluster/clustertest"
	"hermes/backend/event"
	"hermes/backend/host"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runner"
)

// TestApp_ClusterRunsInTheWindow: a window whose hermes.toml names a
// cluster opens as desktop.go does (host.Options.Cluster):
// it lists a replica's live run with its replica, stops it, and shows the
// replicas; a window without one says there is no cluster.
func TestApp_ClusterRunsInTheWindow(t *testing.T) {
	url := clustertest.Start(t).URL
	hold := make(chan struct{})
	model := llmtest.NewServer(t,
		llmtest.Step{Content: "Listing.", ToolCalls: []llm.ToolCall{{ID: "c1", Name: "list_files", Arguments: `{}`}}, Wait: hold},
		llmtest.Step{Content: "Done."},
	)
	r := clustertest.StartRunReplica(t, url, "replica-0", model.URL, nil)
	release := sync.OnceFunc(func() { close(hold) })
	t.Cleanup(release)
	clustertest.WaitReplicas(t, url, func(m map[string]cluster.Replica) bool { return len(m) == 1 })
	id, err := r.Runs.Start(t.Context(), runner.StartRequest{Task: "say hello"})
	if err != nil {
		t.Fatal(err)
	}

	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte(fmt.Sprintf("[cluster]\nnats_url = %q\n", url)), 0o600); err != nil {
		t.Fatal(err)
	}
	h, err := host.Open(t.Context(), home, host.Desktop, host.Options{Cluster: true, Warn: func(err error) { t.Error(err) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close(context.Background()) })
	if !h.ObservesCluster() {
		t.Fatal("the host does not observe the cluster of hermes.toml")
	}
	a := app.New(h)

	runs, err := a.ListRuns()
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(runs, func(s runner.Summary) bool { return s.RunID == id })
	if i < 0 || runs[i].Replica != "replica-0" || !runs[i].Live {
		t.Fatalf("the window lists %+v; want %s live on replica-0", runs, id)
	}
	w, err := h.Runs().Watch(id, 0)
	if err != nil {
		t.Fatal(err)
	}
	// The window forwards the bus's events: the replica's run's are there.
	bus := h.Runs().Bus().Subscribe(4096, func(e event.Event) bool { return e.RunID == id })
	defer h.Runs().Bus().Unsubscribe(bus)
	if err := a.Control(id, agent.Control{Kind: agent.ControlStop}); err != nil {
		t.Fatal(err)
	}
	release()
	var last event.Event
	for {
		events, more := w.Next()
		if len(events) > 0 {
			last = events[len(events)-1]
		}
		if more == nil {
			break
		}
		<-more
	}
	if d, err := event.Decode[event.RunFinishedData](last); err != nil || d.Status != event.StatusStopped {
		t.Fatalf("the run ended with %s %+v (%v)", last.Type, d, err)
	}
	for e := range bus.C {
		if e.Type == event.RunFinished {
			break
		}
	}
	if st := a.ClusterStatus(); !st.Enabled || len(st.Replicas) != 1 || st.Replicas[0].ID != "replica-0" {
		t.Fatalf("the window's cluster status: %+v", st)
	}

	if st := newApp(t, t.TempDir()).ClusterStatus(); st.Enabled || st.Replicas == nil {
		t.Fatalf("without a cluster: %+v", st)
	}
}
