package host_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"hermes/backend/cluster/clustertest"
	"hermes/backend/homelock"
	"hermes/backend/host"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runner"
)

// TestOpen_UnreachableClusterLeavesTheHome: Options.Cluster with a
// nats_url no server answers opens the home all the same, with its own
// runs, and Warn says why the cluster's are not there.
func TestOpen_UnreachableClusterLeavesTheHome(t *testing.T) {
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte("[cluster]\nnats_url = \"nats://127.0.0.1:9\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var warned []string
	h, err := host.Open(t.Context(), home, host.Desktop, host.Options{Cluster: true, Warn: func(err error) { warned = append(warned, err.Error()) }})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close(context.Background())
	if h.ObservesCluster() || h.Runs() != h.Manager() {
		t.Errorf("the host observes the cluster (%v) or its runs are not its Manager's", h.ObservesCluster())
	}
	if len(warned) == 0 || !strings.Contains(warned[0], "serving this home's runs only") {
		t.Errorf("Warn was told %q", warned)
	}
}

// withCluster adds [cluster] nats_url = url to home's hermes.toml.
func withCluster(t *testing.T, home, url string) {
	t.Helper()
	path := filepath.Join(home, "hermes.toml")
	raw, _ := os.ReadFile(path) // none yet is an empty config
	if err := os.WriteFile(path, append(raw, fmt.Sprintf("\n[cluster]\nnats_url = %q\n", url)...), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestOpen_BotJoinsTheClusterAsAReplica: the bot's host with
// Options.Cluster is one replica of the cluster, not an observer of it, and
// a window observing the cluster from another home hears of its runs.
func TestOpen_BotJoinsTheClusterAsAReplica(t *testing.T) {
	url := clustertest.Start(t).URL
	hold := make(chan struct{})
	home, _ := newHome(t, llmtest.NewServer(t, llmtest.Step{Content: "Thinking.", Wait: hold}))
	withCluster(t, home, url)
	other := t.TempDir()
	withCluster(t, other, url)
	window := open(t, other, host.Desktop, host.Options{Cluster: true})
	feed := window.Runs().Feed()
	defer feed.Close()

	bot := open(t, home, host.Bot, host.Options{MustOwn: true, Cluster: true})
	t.Cleanup(sync.OnceFunc(func() { close(hold) })) // before the host closes, which waits for the run
	if bot.Replica() == nil || bot.ObservesCluster() {
		t.Fatalf("the bot's host: a replica %v, an observer %v; want a replica only", bot.Replica() != nil, bot.ObservesCluster())
	}
	id, err := bot.Runs().Start(t.Context(), runner.StartRequest{Task: "think"})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.After(30 * time.Second)
	for {
		select {
		case <-feed.Ready():
		case <-deadline:
			t.Fatal("the window did not hear of the bot's run in 30 s")
		}
		if slices.ContainsFunc(feed.Take(), func(s runner.Summary) bool {
			return s.RunID == id && strings.HasPrefix(s.Replica, "hermes-bot ")
		}) {
			return
		}
	}
}

// TestOpen_BotFailsOnAnUnreachableCluster: the bot cannot go without the
// cluster its replicas share, so Open fails saying what to check, and
// lets go of the home.
func TestOpen_BotFailsOnAnUnreachableCluster(t *testing.T) {
	home := t.TempDir()
	withCluster(t, home, "nats://127.0.0.1:9")
	_, err := host.Open(t.Context(), home, host.Bot, host.Options{MustOwn: true, HoldStore: true, Cluster: true})
	if err == nil || !strings.Contains(err.Error(), "[cluster] nats_url") {
		t.Fatalf("Open = %v; want the error to name [cluster] nats_url", err)
	}
	if _, err := homelock.ReadLock(home); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the lock after a failed open: %v", err)
	}
	h := open(t, home, host.Bot, host.Options{MustOwn: true, HoldStore: true})
	if h.Replica() != nil {
		t.Fatal("a host without Options.Cluster joined the cluster")
	}
}
