package config

import (
	"strings"
	"testing"

	"hermes/backend/i18n"
)

// A key in a base URL's query string (?api-key=…) never shows in a
// validation error, in either language.
func TestValidate_BaseURLQueryKeyNotShown(t *testing.T) {
	const secret = "SECRET123456"
	tests := []struct {
		name   string
		change func(*Config)
	}{
		{"no scheme", func(c *Config) { c.Model.BaseURL = "api.example.com/v1?api-key=" + secret }},
		{"endpoint without a scheme", func(c *Config) {
			c.Model.Endpoints = []Endpoint{{BaseURL: "api.example.com/v1?api-key=" + secret}}
		}},
		{"endpoint listed twice", func(c *Config) {
			c.Model.Endpoints = []Endpoint{{BaseURL: "https://a.test/v1?api-key=" + secret}, {BaseURL: "https://a.test/v1/?api-key=" + secret}}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Default()
			tt.change(&c)
			err := c.Validate()
			if err == nil {
				t.Fatal("Validate passed, want an error")
			}
			for _, text := range inBothLanguages(err) {
				if strings.Contains(text, secret) {
					t.Errorf("the error shows the key: %s", text)
				}
			}
		})
	}
}

// inBothLanguages is err's text, and that of every i18n error joined in it
// in English and in Chinese.
func inBothLanguages(err error) []string {
	out := []string{err.Error()}
	var walk func(error)
	walk = func(e error) {
		if ie, ok := e.(*i18n.Error); ok {
			out = append(out, i18n.In(i18n.EN, ie.Key, ie.Args...), i18n.In(i18n.ZH, ie.Key, ie.Args...))
		}
		if joined, ok := e.(interface{ Unwrap() []error }); ok {
			for _, x := range joined.Unwrap() {
				walk(x)
			}
		}
	}
	walk(err)
	return out
}
