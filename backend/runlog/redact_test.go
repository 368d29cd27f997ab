package runlog

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"hermes/backend/event"
)

func TestRedactor(t *testing.T) {
	const key = "sk-test-0123456789abcdef"
	tests := []struct {
		name    string
		secrets []string
		in      string
		want    string
	}{
		{"plain", []string{key}, "Authorization: Bearer " + key, "Authorization: Bearer [REDACTED]"},
		{"every occurrence", []string{key}, key + " and " + key, "[REDACTED] and [REDACTED]"},
		{"json escaped quote and backslash", []string{`pa"ss\word99`}, `{"v":"pa\"ss\\word99"}`, `{"v":"[REDACTED]"}`},
		{"json html escaped", []string{"tok<en>&secret"}, `{"v":"tok\u003cen\u003e\u0026secret"}`, `{"v":"[REDACTED]"}`},
		{"json unicode", []string{"clé-secrète-1"}, `{"v":"clé-secrète-1"}`, `{"v":"[REDACTED]"}`},
		{"surrounding space trimmed", []string{"  " + key + "\n"}, "k=" + key, "k=[REDACTED]"},
		{"secret containing another", []string{"abcdefgh", "abcdefgh-ijklmnop"}, "x abcdefgh-ijklmnop y abcdefgh", "x [REDACTED] y [REDACTED]"},
		{"short secret ignored", []string{"ok", "1234567"}, "ok 1234567", "ok 1234567"},
		{"empty secret ignored", []string{""}, "nothing", "nothing"},
		{"no secrets", nil, "plain " + key, "plain " + key},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewRedactor(tt.secrets...)
			if got := string(r.Redact([]byte(tt.in))); got != tt.want {
				t.Errorf("Redact = %q, want %q", got, tt.want)
			}
			if got := r.String(tt.in); got != tt.want {
				t.Errorf("String = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestRedactor_NoMatchReturnsSameSlice(t *testing.T) {
	r := NewRedactor("sk-test-0123456789abcdef", "another-secret-value")
	in := []byte(`{"task":"read a.txt","model":"gpt-4o-mini"}`)
	orig := bytes.Clone(in)
	out := r.Redact(in)
	if &out[0] != &in[0] || len(out) != len(in) {
		t.Fatal("Redact with no match must return its argument")
	}
	if allocs := testing.AllocsPerRun(100, func() { r.Redact(in) }); allocs != 0 {
		t.Fatalf("Redact with no match allocates %v times", allocs)
	}
	hit := []byte(`{"k":"sk-test-0123456789abcdef"}`)
	r.Redact(hit)
	if !bytes.Equal(in, orig) || !bytes.Contains(hit, []byte("sk-test")) {
		t.Fatal("Redact modified its argument")
	}
	var nilRedactor *Redactor
	if got := nilRedactor.Redact(in); &got[0] != &in[0] {
		t.Fatal("a nil Redactor must pass bytes through")
	}
}

// A secret in any payload never reaches the log when the emitter redacts.
func TestRedactor_KeepsSecretsOutOfTheLog(t *testing.T) {
	const key = `sk-live-"quoted"\and<html>`
	r := NewRedactor()
	r.Add(key)
	home := t.TempDir()
	w, err := Create(home, "r1", t0)
	if err != nil {
		t.Fatal(err)
	}
	em := event.NewEmitter("r1", event.EmitterOptions{Sinks: []event.Sink{w}, Redact: r.Redact})
	mustEmit(t, em, event.ToolFinished, 1, event.ToolFinishedData{Result: "env: OPENAI_API_KEY=" + key, Error: "401 for key " + key})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(w.Path())
	if err != nil {
		t.Fatal(err)
	}
	escaped, _ := json.Marshal(key)
	if bytes.Contains(raw, []byte(key)) || bytes.Contains(raw, escaped[1:len(escaped)-1]) || !bytes.Contains(raw, []byte(Redacted)) {
		t.Fatalf("the log holds the secret or no redaction mark: %s", raw)
	}
	events, err := ReadFile(w.Path())
	if err != nil {
		t.Fatal(err)
	}
	d, err := event.Decode[event.ToolFinishedData](events[0])
	if err != nil || !strings.HasSuffix(d.Result, Redacted) {
		t.Fatalf("redacted payload no longer decodes: %v %q", err, d.Result)
	}
}

func TestRedactor_AddWhileRedacting(t *testing.T) {
	r := NewRedactor("first-secret-value")
	in := []byte(`{"a":"first-secret-value","b":"second-secret-value"}`)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 100 {
			r.Redact(in)
		}
	}()
	r.Add("second-secret-value")
	<-done
	if got := string(r.Redact(in)); got != `{"a":"[REDACTED]","b":"[REDACTED]"}` {
		t.Fatalf("after Add: %s", got)
	}
}
