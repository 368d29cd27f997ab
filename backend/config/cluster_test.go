package config

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestCluster_KeysValidateAndTokenIsSecret: [cluster] loads with its
// defaults, its token (read through nats_token_env) is among the secrets,
// and a URL with a password, an even replica count or a sub-second
// ack_wait are refused with what to do.
func TestCluster_KeysValidateAndTokenIsSecret(t *testing.T) {
	const token = "nats-token-7d1c9e"
	cfg, err := Load(writeConfig(t, `[cluster]
nats_url = "nats://n1:4222, nats://n2:4222"
nats_token_env = "HERMES_NATS_TOKEN"
`))
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	c := cfg.Cluster
	if !c.Enabled() || c.StreamReplicas() != 1 || c.TaskAckWait() != DefaultClusterAckWait {
		t.Fatalf("cluster = %+v", c)
	}
	getenv := func(k string) string { return map[string]string{"HERMES_NATS_TOKEN": token}[k] }
	if !slices.Contains(cfg.Secrets(getenv), token) {
		t.Fatal("the NATS token is not among the secrets")
	}
	if cfg.ResolveEnv(getenv).Cluster.NATSToken != token {
		t.Fatal("nats_token_env was not resolved")
	}
	if Default().Cluster.Enabled() {
		t.Fatal("the cluster is on by default")
	}

	for _, bad := range []struct {
		c    Cluster
		want string
	}{
		{Cluster{NATSURL: "nats://user:pw@n1:4222"}, "nats_token_env"},
		{Cluster{NATSURL: "http://n1:4222"}, "nats://"},
		{Cluster{NATSURL: "nats://n1:4222", Replicas: 2}, "1, 3 or 5"},
		{Cluster{NATSURL: "nats://n1:4222", AckWait: Duration{time.Millisecond}}, `"1s"`},
		{Cluster{NATSURL: "nats://n1:4222", NATSToken: "a", NATSCreds: "b"}, "keep one"},
	} {
		cfg := Default()
		cfg.Cluster = bad.c
		err := cfg.Validate()
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%+v: %v, want one saying %q", bad.c, err, bad.want)
		}
		if err != nil && strings.Contains(err.Error(), "pw") {
			t.Errorf("the error shows the URL's password: %v", err)
		}
	}
}
