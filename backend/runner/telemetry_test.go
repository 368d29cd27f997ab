package runner_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runlog"
	"hermes/backend/runner"
	"hermes/backend/telemetry/telemetrytest"
)

// TestManager_ExportsRunsAsTraces: with [telemetry] set, a run is exported
// to the collector as a trace (root, iteration, model and tool spans), with
// the header headers_env names; include_content sends the tool's result
// scrubbed of every secret, and the header's value, a secret too, stays out
// of the run's events and log. Shutdown sends what is queued.
func TestManager_ExportsRunsAsTraces(t *testing.T) {
	const otlpAuth = "Basic b3RscC1hdXRoLXNlY3JldC0xMjM0"
	rec := telemetrytest.NewHTTP(t)
	srv := llmtest.NewServer(t,
		llmtest.Step{ToolCalls: []llm.ToolCall{{ID: "c1", Name: "read_file", Arguments: `{"path":".env"}`}}},
		llmtest.Step{Content: "The file sets WECOM_SECRET."},
	)
	_, home := secretsHome(t, srv, `
[telemetry]
otlp_endpoint = "`+rec.URL+`"
headers_env = { Authorization = "TEST_OTLP_AUTH" }
include_content = true
service_name = "hermes-e2e"
`)
	m := runner.New(runner.Options{Home: home, Workspace: wsOf(home), Getenv: func(k string) string {
		return map[string]string{"TEST_MODEL_KEY": modelKey, "TEST_CORP_SECRET": corpSecret, "TEST_OTLP_AUTH": otlpAuth}[k]
	}})
	if err := os.WriteFile(filepath.Join(wsOf(home), ".env"), []byte("WECOM_SECRET="+corpSecret+"\nOTLP="+otlpAuth+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	id, err := m.Start(t.Context(), runner.StartRequest{Task: "what does .env set?"})
	if err != nil {
		t.Fatal(err)
	}
	events := waitEnd(t, m, id)
	if err := m.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	spans := rec.Spans()
	names := map[string]int{}
	for _, s := range spans {
		names[strings.Fields(s.Name)[0]]++
		if s.Service != "hermes-e2e" {
			t.Fatalf("span %q of service %q", s.Name, s.Service)
		}
	}
	if names["invoke_agent"] != 1 || names["iteration"] != 2 || names["chat"] != 2 || names["execute_tool"] != 1 {
		t.Fatalf("spans by kind: %v", names)
	}
	var result string
	for _, s := range spans {
		if v := telemetrytest.Attr(s.Attributes, "gen_ai.tool.call.result"); v != nil {
			result = v.GetStringValue()
		}
	}
	if !strings.Contains(result, "WECOM_SECRET="+runlog.Redacted) {
		t.Fatalf("the tool's result was not exported, scrubbed: %q", result)
	}
	raw := bytes.Join(rec.Raw(), nil)
	assertNoSecret(t, "the export", raw)
	if bytes.Contains(raw, []byte(otlpAuth)) {
		t.Fatal("the export holds the header's value")
	}
	if h := rec.Headers(); len(h) == 0 || len(h[0]["Authorization"]) != 1 || h[0]["Authorization"][0] != otlpAuth {
		t.Fatalf("the collector got headers %v", h)
	}
	var all bytes.Buffer
	for _, e := range events {
		all.Write(e.Data)
	}
	if bytes.Contains(all.Bytes(), []byte(otlpAuth)) {
		t.Fatal("the run's events hold the header's value")
	}
}
