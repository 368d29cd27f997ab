package cluster_test

import (
	"errors"
	"strings"
	"testing"

	"hermes/backend/cluster"
	"hermes/backend/config"
)

// TestOpen_RefusesNATSElsewhereWithoutCredentials: a replica or an observer
// that would reach NATS on another machine without a token or credentials
// (here: the variable named for the token is unset) is refused before it
// dials, with what to do.
func TestOpen_RefusesNATSElsewhereWithoutCredentials(t *testing.T) {
	// 192.0.2.1 is reserved for documentation: nothing answers there.
	c := config.Cluster{NATSURL: "nats://192.0.2.1:4222", NATSTokenEnv: "HERMES_TEST_NATS_TOKEN"}
	refused := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, config.ErrInvalid) || !strings.Contains(err.Error(), "HERMES_TEST_NATS_TOKEN") || !strings.Contains(err.Error(), "insecure = true") {
			t.Errorf("%s: %v", what, err)
		}
	}
	_, err := cluster.Open(t.Context(), cluster.Options{Config: c, Name: "replica"})
	refused("Open", err)
	_, err = cluster.Observe(cluster.Options{Config: c, Name: "observer"})
	refused("Observe", err)
}
