package llm_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
)

func TestCheck(t *testing.T) {
	// open answers /models without asking for a key, as Ollama does.
	open := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"object":"list","data":[]}`))
	}))
	t.Cleanup(open.Close)
	localhost := strings.Replace(open.URL, "127.0.0.1", "localhost", 1)
	tests := []struct {
		name     string
		base     string
		key      string
		wantErr  error
		wantText string
	}{
		{name: "server answers and accepts the key", base: llmtest.NewServer(t).URL, key: testKey},
		{name: "401 refuses the key", base: statusServer(t, 401, "bad key").URL + "/v1", key: testKey, wantErr: llm.ErrUnauthorized, wantText: "api_key_env"},
		{name: "403 refuses the key", base: statusServer(t, 403, "forbidden").URL + "/v1", key: testKey, wantErr: llm.ErrUnauthorized, wantText: "OPENAI_API_KEY"},
		{name: "404 on /models still proves the server is there", base: statusServer(t, 404, "no route").URL + "/v1", key: testKey},
		{name: "405 on /models still proves the server is there", base: statusServer(t, 405, "method").URL + "/v1", key: testKey},
		{name: "500 is a server failure", base: statusServer(t, 500, "boom").URL + "/v1", key: testKey, wantErr: llm.ErrServer, wantText: "boom"},
		{name: "connection refused", base: "http://" + closedAddr(t) + "/v1", key: testKey, wantErr: llm.ErrUnreachable, wantText: "OPENAI_BASE_URL"},
		{name: "no key for a remote endpoint", base: "http://models.example.invalid/v1", wantErr: llm.ErrMissingKey, wantText: "api_key_env"},
		{name: "no key is fine on 127.0.0.1", base: open.URL + "/v1"},
		{name: "no key is fine on localhost", base: localhost + "/v1"},
		{name: "not an http URL", base: "tcp://127.0.0.1:1/v1", key: testKey, wantErr: llm.ErrUnreachable, wantText: "base_url"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := newClient(tt.base, func(cfg *llm.Config) { cfg.APIKey = tt.key }).Check(t.Context())
			assertNoKey(t, err)
			if !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Fatalf("Check = %v, want %v", err, tt.wantErr)
			}
			if err != nil && !strings.Contains(english(err), tt.wantText) {
				t.Errorf("error %q does not contain %q", english(err), tt.wantText)
			}
		})
	}
}
