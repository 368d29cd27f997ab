package config

import (
	"regexp"
	"testing"
)

// TestNames_AsTheirRegexps: each check by hand says what the regexp it
// replaced said.
func TestNames_AsTheirRegexps(t *testing.T) {
	checks := []struct {
		re    string
		check func(string) bool
	}{
		{`^[A-Za-z_][A-Za-z0-9_]*$`, isEnvName},
		{`^[A-Za-z0-9_-]{1,32}$`, isMCPName},
		{`^[A-Z]{3}$`, isCurrency},
		{"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$", isHeaderName},
	}
	inputs := []string{"", "a", "A_1", "_x", "1a", "a-b", "USD", "usd", "USDT", "US", "X-Api-Key", "a b", "a\n", "é",
		"Authorization", "x-langfuse-ingestion-version", "a:b", "a\x00", "abcdefghijklmnopqrstuvwxyzABCDEF", "abcdefghijklmnopqrstuvwxyzABCDEFG"}
	for c := range 128 {
		inputs = append(inputs, string(rune(c)), "a"+string(rune(c)), "AB"+string(rune(c)))
	}
	for _, c := range checks {
		re := regexp.MustCompile(c.re)
		for _, in := range inputs {
			if got, want := c.check(in), re.MatchString(in); got != want {
				t.Errorf("%s: %q gives %v, the regexp %v", c.re, in, got, want)
			}
		}
	}
}
