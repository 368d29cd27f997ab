package runlog

import (
	"bytes"
	"cmp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"
)

// minSecretLen is the shortest secret redacted; shorter ones would blank out
// ordinary words all over the logs.
const minSecretLen = 8

// Redacted replaces every secret found.
const Redacted = "[REDACTED]"

var redacted = []byte(Redacted)

// Redactor scrubs secrets from bytes before they reach a log, an event, an
// error or the model. It finds each secret as it is and in the forms a tool
// could print it in (formsOf): inside a JSON string, reversed, URL-escaped,
// hex, and base64 in either alphabet wherever it sits in a longer encoded
// text, wrapped over lines or not. It is safe for concurrent use; Add may
// be called while Redact runs.
type Redactor struct {
	mu    sync.Mutex              // serialises Add
	forms atomic.Pointer[formSet] // immutable once stored
}

// NewRedactor returns a redactor for the given secrets.
func NewRedactor(secrets ...string) *Redactor {
	r := &Redactor{}
	r.add(secrets)
	return r
}

// Add makes r redact secret too, in all its forms. Surrounding space is
// trimmed; empty and short secrets are ignored.
func (r *Redactor) Add(secret string) { r.add([]string{secret}) }

func (r *Redactor) add(secrets []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var pats []pattern
	if old := r.forms.Load(); old != nil {
		pats = slices.Clone(old.pats)
	}
	n := len(pats)
	for _, secret := range secrets {
		if secret = strings.TrimSpace(secret); len(secret) < minSecretLen {
			continue
		}
		for _, p := range formsOf(secret) {
			if !slices.ContainsFunc(pats, func(q pattern) bool { return bytes.Equal(q.b, p.b) }) {
				pats = append(pats, p)
			}
		}
	}
	if len(pats) > n {
		r.forms.Store(newFormSet(pats))
	}
}

// Redact returns b with every secret replaced by "[REDACTED]", and every
// encoded text that holds one replaced whole. When nothing matches it
// returns b itself without allocating; otherwise a new slice, so b is never
// modified. A nil Redactor redacts nothing.
func (r *Redactor) Redact(b []byte) []byte {
	if r == nil {
		return b
	}
	fs := r.forms.Load()
	if fs == nil {
		return b
	}
	spans := fs.find(b)
	if spans == nil {
		return b
	}
	return replace(b, spans)
}

// replace returns b with each span, overlapping ones merged, replaced by
// Redacted.
func replace(b []byte, spans []span) []byte {
	slices.SortFunc(spans, func(x, y span) int { return cmp.Compare(x.s, y.s) })
	out := make([]byte, 0, len(b))
	at := 0
	for i := 0; i < len(spans); {
		cur := spans[i]
		for i++; i < len(spans) && spans[i].s < cur.e; i++ {
			cur.e = max(cur.e, spans[i].e)
		}
		out = append(append(out, b[at:cur.s]...), redacted...)
		at = cur.e
	}
	return append(out, b[at:]...)
}

// String is Redact for a string; s itself when nothing matches.
func (r *Redactor) String(s string) string {
	if s == "" {
		return s
	}
	// Redact reads b and never writes it, so it may see s's bytes.
	b := unsafe.Slice(unsafe.StringData(s), len(s))
	out := r.Redact(b)
	if &out[0] == &b[0] && len(out) == len(b) {
		return s
	}
	return string(out)
}
