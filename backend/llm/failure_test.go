package llm

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		in     string
		want   time.Duration
		wantOK bool
	}{
		{"0", 0, true},
		{"7", 7 * time.Second, true},
		{" 2 ", 2 * time.Second, true},
		{"", 0, false},
		{"-3", 0, false},
		{"soon", 0, false},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second, true},
		{now.Add(-time.Hour).Format(http.TimeFormat), 0, true},
	}
	for _, tt := range tests {
		got, ok := parseRetryAfter(tt.in, now)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("parseRetryAfter(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.wantOK)
		}
	}
}

func TestDefaultBackoff(t *testing.T) {
	for attempt, base := range map[int]time.Duration{1: 500 * time.Millisecond, 2: time.Second, 3: 2 * time.Second} {
		for range 20 {
			if d := defaultBackoff(attempt); d < base || d >= base+base/4 {
				t.Errorf("defaultBackoff(%d) = %v, want within [%v, %v)", attempt, d, base, base+base/4)
			}
		}
	}
}

func TestRedact(t *testing.T) {
	c := New(Config{BaseURL: "http://127.0.0.1/v1", APIKey: "sk-abc"})
	long := strings.Repeat("é", maxDetail)
	tests := []struct{ in, want string }{
		{"bad key sk-abc given", "bad key [redacted] given"},
		{"multi\n  line\tmessage", "multi line message"},
		{long, long[:maxDetail] + "…"},
	}
	for _, tt := range tests {
		if got := c.redact(tt.in); got != tt.want {
			t.Errorf("redact(%.20q…) = %.40q…, want %.40q…", tt.in, got, tt.want)
		}
	}
}
