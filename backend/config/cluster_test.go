package config

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"hermes/backend/i18n"
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

// TestCluster_CredentialsOffThisMachine: replicas that would reach NATS on
// another machine with neither a token nor a .creds file are refused, in
// the file and once the environment is resolved, unless insecure = true,
// which is warned of; on this machine they are only warned of.
func TestCluster_CredentialsOffThisMachine(t *testing.T) {
	i18n.SetLang(i18n.EN)
	vars := map[string]string{"NATS_TOKEN": "nats-token-1", "EMPTY": ""}
	tests := []struct {
		name    string
		c       Cluster
		refused string // in Validate's error, "" for none
		unready string // in CheckAuth's error once resolved, "" for none
		warned  string // in the warning once resolved, "" for none
	}{
		{"a server elsewhere", Cluster{NATSURL: "nats://10.0.0.5:4222"}, "10.0.0.5:4222", "10.0.0.5:4222", ""},
		{"one of the servers elsewhere", Cluster{NATSURL: "nats://127.0.0.1:4222, tls://n2.example:4222"}, "(n2.example:4222)", "n2.example:4222", ""},
		{"elsewhere, insecure", Cluster{NATSURL: "nats://10.0.0.5:4222", Insecure: true}, "", "", "insecure = true"},
		{"elsewhere, a token", Cluster{NATSURL: "nats://10.0.0.5:4222", NATSToken: "t"}, "", "", ""},
		{"elsewhere, a token's variable", Cluster{NATSURL: "nats://10.0.0.5:4222", NATSTokenEnv: "NATS_TOKEN"}, "", "", ""},
		{"elsewhere, a .creds file", Cluster{NATSURL: "wss://nats.example", NATSCreds: "/etc/hermes/bot.creds"}, "", "", ""},
		{"elsewhere, an unset variable", Cluster{NATSURL: "nats://10.0.0.5:4222", NATSCredsEnv: "EMPTY"}, "", "EMPTY", "EMPTY"},
		{"127.0.0.1", Cluster{NATSURL: "nats://127.0.0.1:4222"}, "", "", "on this machine"},
		{"127.8.9.10", Cluster{NATSURL: "nats://127.8.9.10:4222"}, "", "", "on this machine"},
		{"::1", Cluster{NATSURL: "nats://[::1]:4222"}, "", "", "on this machine"},
		{"localhost", Cluster{NATSURL: "ws://LocalHost:8080, nats://localhost"}, "", "", "on this machine"},
		{"here, a token", Cluster{NATSURL: "nats://127.0.0.1:4222", NATSToken: "t"}, "", "", ""},
		{"off", Cluster{}, "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := Default()
			cfg.Cluster = tt.c
			check := func(what string, err error, want string) {
				t.Helper()
				switch {
				case want == "" && err != nil:
					t.Errorf("%s: %v", what, err)
				case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
					t.Errorf("%s: %v, want one saying %q", what, err, want)
				}
			}
			check("Validate", cfg.Validate(), tt.refused)
			resolved := cfg.ResolveEnv(func(k string) string { return vars[k] })
			err := resolved.Cluster.CheckAuth()
			check("CheckAuth", err, tt.unready)
			if err != nil && !errors.Is(err, ErrInvalid) {
				t.Errorf("CheckAuth: %v is not ErrInvalid", err)
			}
			check("the warning", errors.Join(resolved.Cluster.Warnings()...), tt.warned)
		})
	}

	cfg := Default()
	cfg.Cluster = Cluster{NATSURL: "nats://10.0.0.5:4222"}
	msg := cfg.Validate().Error()
	for _, want := range []string{"[cluster] nats_url", "nats_token_env", "nats_creds", "insecure = true"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the refusal does not say %q: %s", want, msg)
		}
	}
	i18n.SetLang(i18n.ZH)
	defer i18n.SetLang(i18n.EN)
	if msg := cfg.Validate().Error(); !strings.Contains(msg, "没有令牌或凭据") {
		t.Errorf("in Chinese: %s", msg)
	}
}
