package llm_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"hermes/backend/i18n"
	"hermes/backend/llm"
	"hermes/backend/llm/llmtest"
)

// Servers echo the key they refuse, and base URLs sometimes carry it; none of
// it may reach an error, in either language, or a retry note.
func TestErrors_NeverContainKey(t *testing.T) {
	echo := "Incorrect API key provided: " + testKey + ". You can find your API key in your account."
	tests := []struct {
		name    string
		steps   []llmtest.Step
		base    string // overrides the server's URL
		wantErr error
	}{
		{name: "401 echoing the key", steps: []llmtest.Step{{Status: 401, Content: echo}}, wantErr: llm.ErrUnauthorized},
		{name: "400 echoing the key", steps: []llmtest.Step{{Status: 400, Content: echo}}, wantErr: llm.ErrBadRequest},
		{name: "404 echoing the key", steps: []llmtest.Step{{Status: 404, Content: echo}}, wantErr: llm.ErrModelNotFound},
		{name: "429 echoing the key", steps: []llmtest.Step{{Status: 429, Content: echo}, {Status: 429, Content: echo}}, wantErr: llm.ErrRateLimited},
		{name: "5xx echoing the key", steps: []llmtest.Step{{Status: 500, Content: echo}, {Status: 500, Content: echo}}, wantErr: llm.ErrServer},
		{name: "key in the base URL of a closed port", base: "http://user:" + testKey + "@" + closedAddr(t) + "/v1", wantErr: llm.ErrUnreachable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := tt.base
			if base == "" {
				base = llmtest.NewServer(t, tt.steps...).URL
			}
			rec := &recorder{}
			c := newClient(base, func(cfg *llm.Config) { cfg.MaxRetries = 1 })
			_, err := c.Chat(t.Context(), rec.request())
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			// The server's message is kept, with the key cut out of it.
			if tt.base == "" && !strings.Contains(english(err), "Incorrect API key provided: [redacted]") {
				t.Errorf("error %q should carry the server's message, redacted", english(err))
			}
			noLeak(t, testKey, rec, err, c.Check(t.Context()))
		})
	}
}

// noLeak fails t if secret is in any text a person could see of errs, in
// either language, or in a retry note rec saw.
func noLeak(t *testing.T, secret string, rec *recorder, errs ...error) {
	t.Helper()
	var texts []string
	for _, e := range errs {
		if e == nil {
			continue
		}
		texts = append(texts, e.Error(), fmt.Sprintf("%+v", e), fmt.Sprintf("%#v", e))
		var ie *i18n.Error
		if errors.As(e, &ie) {
			texts = append(texts, i18n.In(i18n.EN, ie.Key, ie.Args...), i18n.In(i18n.ZH, ie.Key, ie.Args...))
		}
	}
	for _, r := range rec.retries {
		texts = append(texts, r.Err)
	}
	for _, s := range texts {
		if strings.Contains(s, secret) {
			t.Errorf("the secret leaked into %q", s)
		}
	}
}

// A key given in the base URL's query string (?api-key=…), as some gateways
// take it, is masked like a password in the URL: no error shows it.
func TestErrors_NeverContainQuerySecret(t *testing.T) {
	const secret = "SECRET123456"
	tests := []struct {
		name string
		base func(t *testing.T) string
	}{
		{"unreachable", func(t *testing.T) string { return "http://" + closedAddr(t) + "/v1?api-key=" + secret }},
		{"failing", func(t *testing.T) string {
			return statusServer(t, 500, "upstream refused key "+secret).URL + "/v1?api-version=2024-06-01&api-key=" + secret
		}},
		{"not found", func(t *testing.T) string { return llmtest.NewServer(t).URL + "?api-key=" + secret }},
		{"no host", func(t *testing.T) string { return "http:///v1?api-key=" + secret }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{}
			c := newClient(tt.base(t), func(cfg *llm.Config) { cfg.MaxRetries = 1 })
			_, err := c.Chat(t.Context(), rec.request())
			if err == nil {
				t.Fatal("Chat succeeded, want an error")
			}
			noLeak(t, secret, rec, err, c.Check(t.Context()))
		})
	}
}
