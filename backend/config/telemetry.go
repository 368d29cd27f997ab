package config

import (
	"errors"
	"maps"
	"net/url"
	"slices"
	"strings"

	"hermes/backend/i18n"
)

// Telemetry configures the export of every run as an OpenTelemetry trace
// over OTLP, for Jaeger, Grafana Tempo or Langfuse. Off while OTLPEndpoint
// is empty.
type Telemetry struct {
	// OTLPEndpoint is the collector's base URL, http(s)://host:port with
	// an optional path; OTLP/HTTP posts to its /v1/traces.
	OTLPEndpoint string `toml:"otlp_endpoint"`
	// Protocol is TelemetryHTTP (OTLP/HTTP protobuf, the default) or
	// TelemetryGRPC.
	Protocol string `toml:"protocol"`
	// HeadersEnv maps a header's name to the environment variable that
	// holds its value ({ Authorization = "LANGFUSE_AUTH" }): the values
	// are secrets, so the file holds only the variables' names.
	HeadersEnv map[string]string `toml:"headers_env"`
	// ServiceName is the service.name of the traces.
	ServiceName string `toml:"service_name"`
	// IncludeContent exports prompts, reasoning, tool arguments and
	// results, redacted as the run's events are; otherwise only names,
	// timings, token counts and statuses.
	IncludeContent bool `toml:"include_content"`
}

// Telemetry protocols.
const (
	TelemetryHTTP = "http"
	TelemetryGRPC = "grpc"
)

// DefaultServiceName is the service.name of the traces where hermes.toml
// names none.
const DefaultServiceName = "hermes"

// Enabled reports whether runs are exported.
func (t Telemetry) Enabled() bool { return t.OTLPEndpoint != "" }

// ProtocolName is the protocol in use.
func (t Telemetry) ProtocolName() string { return orDefault(t.Protocol, TelemetryHTTP) }

// Service is the service.name of the traces.
func (t Telemetry) Service() string { return orDefault(t.ServiceName, DefaultServiceName) }

// Headers returns the headers to send, each read from its variable through
// getenv; a header whose variable is empty is left out.
func (t Telemetry) Headers(getenv func(string) string) map[string]string {
	out := map[string]string{}
	for name, ref := range t.HeadersEnv {
		if v := strings.TrimSpace(getenv(ref)); v != "" {
			out[name] = v
		}
	}
	return out
}

// headerVars names the variables HeadersEnv reads, sorted: their values
// are secrets (SecretVars).
func (t Telemetry) headerVars() []string {
	var out []string
	for _, ref := range t.HeadersEnv {
		if ref != "" && !slices.Contains(out, ref) {
			out = append(out, ref)
		}
	}
	slices.Sort(out)
	return out
}

func (t Telemetry) validate() error {
	var errs []error
	if t.OTLPEndpoint != "" {
		if u, err := url.Parse(t.OTLPEndpoint); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			errs = append(errs, i18n.Wrap(ErrInvalid, "config.telemetry.endpoint", shownURL(t.OTLPEndpoint)))
		}
	}
	if p := t.ProtocolName(); p != TelemetryHTTP && p != TelemetryGRPC {
		errs = append(errs, i18n.Wrap(ErrInvalid, "config.telemetry.protocol", t.Protocol))
	}
	for _, name := range slices.Sorted(maps.Keys(t.HeadersEnv)) {
		if !isHeaderName(name) {
			errs = append(errs, i18n.Wrap(ErrInvalid, "config.telemetry.header", name))
		}
		// The message never repeats the value: it may be the secret
		// itself, pasted where its variable's name belongs.
		if ref := t.HeadersEnv[name]; !isEnvName(ref) {
			errs = append(errs, i18n.Wrap(ErrInvalid, "config.telemetry.header_env", name))
		}
	}
	return errors.Join(errs...)
}
