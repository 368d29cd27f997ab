package runner_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/llm/llmtest"
	"hermes/backend/runner"
)

// TestCheckModel_SaysWhetherAKeyWasSent: the check's answer says whether a
// key went to the endpoint, so that the New-run form says one thing per
// case: a key sent and accepted, or none sent and none needed.
func TestCheckModel_SaysWhetherAKeyWasSent(t *testing.T) {
	keyed := llmtest.NewServer(t) // refuses a request without a key
	withEntry := llmtest.NewServer(t)
	// A local server that needs no key, as Ollama and LM Studio.
	local := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			t.Errorf("the keyless endpoint was sent Authorization %q", r.Header.Get("Authorization"))
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"object":"list","data":[{"id":"mock-1","object":"model"}]}`))
	}))
	t.Cleanup(local.Close)
	home := t.TempDir()
	toml := "[model]\nbase_url = \"" + keyed.URL + "\"\nmodel = \"m\"\napi_key_env = \"TEST_MODEL_KEY\"\n\n" +
		"[[model.endpoints]]\nbase_url = \"" + withEntry.URL + "\"\napi_key_env = \"TEST_ENDPOINT_KEY\"\n"
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"TEST_MODEL_KEY": "sk-model-0123456789", "TEST_ENDPOINT_KEY": "sk-endpoint-0123456789"}
	m := runner.New(runner.Options{Home: home, Getenv: func(k string) string { return env[k] }})

	other := llmtest.NewServer(t) // asks for a key, and has no entry
	tests := []struct {
		name    string
		o       runner.Overrides
		ok      bool
		keySent bool
		says    string
	}{
		{"the configured endpoint", runner.Overrides{}, true, true, ""},
		{"the configured endpoint written otherwise", runner.Overrides{BaseURL: keyed.URL + "/"}, true, true, ""},
		{"an endpoint with its own entry", runner.Overrides{BaseURL: withEntry.URL, Model: "mock-1"}, true, true, ""},
		{"a local endpoint that needs no key", runner.Overrides{BaseURL: local.URL + "/v1", Model: "mock-1"}, true, false, ""},
		{"an endpoint without an entry that asks for a key", runner.Overrides{BaseURL: other.URL}, false, false, "[[model.endpoints]]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := m.CheckModel(t.Context(), tt.o)
			if got.OK != tt.ok || got.KeySent != tt.keySent {
				t.Fatalf("CheckModel = %+v; want ok %v, key sent %v", got, tt.ok, tt.keySent)
			}
			if tt.says != "" && (got.Error == nil || !strings.Contains(got.Error.Message["en"], tt.says)) {
				t.Fatalf("error %+v; want it to say %q", got.Error, tt.says)
			}
		})
	}
}
