package config

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"hermes/backend/i18n"
)

// TestTelemetry_HeadersAreSecrets: [telemetry] headers_env reads each
// header from its variable, and the variables and their values are among
// the secrets every redactor and child environment leaves out.
func TestTelemetry_HeadersAreSecrets(t *testing.T) {
	const auth = "Basic cGstbGYtMTIzOnNrLWxmLTQ1Ng=="
	cfg, err := Load(writeConfig(t, `[telemetry]
otlp_endpoint = "https://cloud.langfuse.com/api/public/otel"
headers_env = { Authorization = "LANGFUSE_AUTH", X-Empty = "UNSET_VAR" }
include_content = true
`))
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	tel := cfg.Telemetry
	if !tel.Enabled() || tel.ProtocolName() != TelemetryHTTP || tel.Service() != DefaultServiceName || !tel.IncludeContent {
		t.Fatalf("telemetry = %+v", tel)
	}
	getenv := func(k string) string { return map[string]string{"LANGFUSE_AUTH": auth}[k] }
	if got := tel.Headers(getenv); len(got) != 1 || got["Authorization"] != auth {
		t.Fatalf("headers = %v, want Authorization only (an empty variable sends nothing)", got)
	}
	if vars := cfg.SecretVars(); !slices.Contains(vars, "LANGFUSE_AUTH") || !slices.Contains(vars, "UNSET_VAR") {
		t.Fatalf("SecretVars = %v, want the header variables", vars)
	}
	if !slices.Contains(cfg.Secrets(getenv), auth) {
		t.Fatal("the header's value is not among the secrets")
	}
	if Default().Telemetry.Enabled() {
		t.Fatal("telemetry is on by default")
	}
}

func TestTelemetry_Validate(t *testing.T) {
	i18n.SetLang(i18n.EN)
	const pasted = "Bearer sk-lf-pasted-secret"
	for _, tt := range []struct {
		name string
		tel  Telemetry
		want string
	}{
		{"endpoint", Telemetry{OTLPEndpoint: "localhost:4318"}, "otlp_endpoint"},
		{"protocol", Telemetry{Protocol: "udp"}, `protocol is "udp"`},
		{"header name", Telemetry{HeadersEnv: map[string]string{"Bad Header": "AUTH"}}, `"Bad Header"`},
		{"pasted secret", Telemetry{HeadersEnv: map[string]string{"Authorization": pasted}}, "header Authorization"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := Default()
			c.Telemetry = tt.tel
			err := c.Validate()
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want ErrInvalid saying %q", err, tt.want)
			}
			for _, lang := range []i18n.Lang{i18n.ZH, i18n.EN} {
				i18n.SetLang(lang)
				if msg := err.Error(); strings.Contains(msg, pasted) {
					t.Fatalf("the message repeats the pasted secret: %s", msg)
				}
			}
		})
	}
	c := Default()
	c.Telemetry = Telemetry{OTLPEndpoint: "http://localhost:4317", Protocol: TelemetryGRPC}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
}
