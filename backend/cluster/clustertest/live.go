package clustertest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"hermes/backend/cluster"
	"hermes/backend/config"
	"hermes/backend/runner"
	"hermes/backend/toolbox"
)

// RunReplica is a replica whose runs are started by the test rather than
// by chat messages: its own home and runner.Manager, announced in the
// cluster (it takes no tasks: none are queued) and serving its runs to
// observers (cluster.ServeRuns), as `hermes bot` does.
type RunReplica struct {
	Name      string
	Cluster   *cluster.Cluster
	Runs      *runner.Manager
	Workspace string

	tb    testing.TB
	stop  []func()
	close sync.Once
}

// StartRunReplica starts a replica named name on the NATS server at url
// whose runs ask the scripted model at model; policy may be nil.
func StartRunReplica(tb testing.TB, url, name, model string, policy toolbox.Policy) *RunReplica {
	tb.Helper()
	r := &RunReplica{Name: name, Workspace: tb.TempDir(), tb: tb}
	home := tb.TempDir()
	toml := fmt.Sprintf("[model]\nbase_url = %q\nmodel = \"test-model\"\nmax_retries = 0\n\n[agent]\nstrategy = \"react\"\nroute = false\nworkspace = %q\n", model, r.Workspace)
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte(toml), 0o600); err != nil {
		tb.Fatal(err)
	}
	r.Runs = runner.New(runner.Options{Home: home, Policy: policy, Getenv: func(k string) string {
		if k == "OPENAI_API_KEY" {
			return ModelKey
		}
		return ""
	}})
	cl, err := cluster.Open(context.Background(), cluster.Options{
		Config: config.Cluster{NATSURL: url}, Name: name, AckWait: 1500 * time.Millisecond,
	})
	if err != nil {
		tb.Fatal(err)
	}
	r.Cluster = cl
	tb.Cleanup(r.Close)
	stopTasks, err := cl.Tasks().Consume(func(_ []byte, settle func(bool) error) { _ = settle(false) })
	if err != nil {
		tb.Fatal(err)
	}
	stopRuns, err := cl.ServeRuns(r.Runs)
	if err != nil {
		tb.Fatal(err)
	}
	r.stop = []func(){stopRuns, stopTasks}
	return r
}

// Close stops serving, stops the runs and leaves the cluster.
func (r *RunReplica) Close() {
	r.close.Do(func() {
		for _, stop := range r.stop {
			stop()
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		if err := r.Runs.Shutdown(ctx); err != nil {
			r.tb.Errorf("%s: shutdown: %v", r.Name, err)
		}
		r.Cluster.Close()
	})
}
