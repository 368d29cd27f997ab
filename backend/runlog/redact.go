package runlog

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// minSecretLen is the shortest secret redacted; shorter ones would blank out
// ordinary words all over the logs.
const minSecretLen = 8

// Redacted replaces every secret found.
const Redacted = "[REDACTED]"

var redacted = []byte(Redacted)

// Redactor scrubs secrets from bytes before they reach a log, an event or an
// error. It is safe for concurrent use; Add may be called while Redact runs.
type Redactor struct {
	mu       sync.Mutex                // serialises Add
	patterns atomic.Pointer[[]pattern] // immutable once stored, longest first
}

// pattern is one form of a secret, kept as bytes and as a string so neither
// Redact nor String converts on the hot path.
type pattern struct {
	b []byte
	s string
}

// NewRedactor returns a redactor for the given secrets.
func NewRedactor(secrets ...string) *Redactor {
	r := &Redactor{}
	for _, s := range secrets {
		r.Add(s)
	}
	return r
}

// Add makes r redact secret too, as it is and as it looks inside a JSON
// string. Surrounding space is trimmed; empty and short secrets are ignored.
func (r *Redactor) Add(secret string) {
	secret = strings.TrimSpace(secret)
	if len(secret) < minSecretLen {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	var pats []pattern
	if old := r.patterns.Load(); old != nil {
		pats = slices.Clone(*old)
	}
	for _, form := range jsonForms(secret) {
		if !slices.ContainsFunc(pats, func(q pattern) bool { return q.s == form }) {
			pats = append(pats, pattern{b: []byte(form), s: form})
		}
	}
	// Longest first, so a secret that contains another is replaced whole.
	slices.SortStableFunc(pats, func(a, b pattern) int { return len(b.s) - len(a.s) })
	r.patterns.Store(&pats)
}

// jsonForms is the secret plus its escaped forms inside a JSON string, with
// and without HTML escaping (encoding/json escapes <, > and & by default).
func jsonForms(secret string) []string {
	forms := []string{secret}
	for _, html := range []bool{true, false} {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(html)
		_ = enc.Encode(secret) // a string always encodes
		quoted := bytes.TrimSuffix(b.Bytes(), []byte("\n"))
		forms = append(forms, string(quoted[1:len(quoted)-1]))
	}
	return forms
}

// Redact returns b with every secret replaced by "[REDACTED]". When nothing
// matches it returns b itself without allocating; otherwise a new slice, so
// b is never modified. A nil Redactor redacts nothing.
func (r *Redactor) Redact(b []byte) []byte {
	pats := r.load()
	for i, p := range pats {
		if bytes.Contains(b, p.b) {
			out := bytes.ReplaceAll(b, p.b, redacted)
			for _, q := range pats[i+1:] {
				if bytes.Contains(out, q.b) {
					out = bytes.ReplaceAll(out, q.b, redacted)
				}
			}
			return out
		}
	}
	return b
}

// String is Redact for a string.
func (r *Redactor) String(s string) string {
	for _, p := range r.load() {
		if strings.Contains(s, p.s) {
			s = strings.ReplaceAll(s, p.s, Redacted)
		}
	}
	return s
}

func (r *Redactor) load() []pattern {
	if r == nil {
		return nil
	}
	if p := r.patterns.Load(); p != nil {
		return *p
	}
	return nil
}
