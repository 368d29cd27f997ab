package host_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/host"
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
