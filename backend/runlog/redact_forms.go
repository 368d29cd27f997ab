package runlog

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"
)

// The shortest form of each kind looked for. A secret of minSecretLen
// bytes gives forms at least this long, so they bind only if that minimum
// is lowered; they are what keeps a form from turning up in text that does
// not hold the secret:
//
//   - the plain, reversed, JSON- and URL-escaped forms: minSecretLen, as
//     the secret itself.
//   - hex: 2 characters a byte, so 16 for 8 bytes: 64 bits of the secret.
//   - base64: only the characters fully determined by the secret's bits
//     are looked for, so that the secret is found wherever it sits in a
//     longer encoded text. At its worst alignment an 8-byte secret leaves
//     10 of them (60 bits; the 2 to 4 bits shared with its neighbours at
//     each end are not looked for). Any given 10 characters turn up by
//     chance in random base64 about once in 2^60 places; 6 characters
//     would once in 2^36 places, every few gigabytes of base64 blobs, and
//     4 in every few megabytes.
const (
	minHexForm    = 16
	minBase64Form = 10
)

// formKind says how a match of a form is replaced.
type formKind uint8

const (
	// exact forms are replaced as found.
	exact formKind = iota
	// base64 and hex forms are replaced with the whole encoded text that
	// holds them (block): what is left of the secret's characters at the
	// edges, and whatever else the encoded text holds, such as the other
	// variables of an encoded environment.
	base64Form
	hexForm
)

// pattern is one form of a secret.
type pattern struct {
	b    []byte
	kind formKind
}

// formsOf are the forms of secret that Redact looks for.
func formsOf(secret string) []pattern {
	var out []pattern
	add := func(kind formKind, min int, form string) {
		if len(form) >= min && !slices.ContainsFunc(out, func(p pattern) bool { return string(p.b) == form }) {
			out = append(out, pattern{b: []byte(form), kind: kind})
		}
	}
	for _, text := range []string{secret, reversed(secret), url.QueryEscape(secret), url.PathEscape(secret)} {
		for _, form := range jsonForms(text) {
			add(exact, minSecretLen, form)
		}
	}
	h := hex.EncodeToString([]byte(secret))
	add(hexForm, minHexForm, h)
	add(hexForm, minHexForm, strings.ToUpper(h))
	for _, form := range base64Forms([]byte(secret)) {
		add(base64Form, minBase64Form, form)
		add(base64Form, minBase64Form, strings.NewReplacer("+", "-", "/", "_").Replace(form))
	}
	return out
}

// base64Forms are the characters of secret's base64 (standard alphabet)
// fully determined by its bits, for each of the three places it can start
// in a 3-byte group of a longer text: the first character whose 6 bits all
// fall in the secret, to the last.
func base64Forms(secret []byte) []string {
	out := make([]string, 0, 3)
	for align := range 3 {
		buf := make([]byte, align+len(secret))
		copy(buf[align:], secret)
		enc := base64.RawStdEncoding.EncodeToString(buf)
		first := (8*align + 5) / 6            // ceil(8·align / 6)
		last := 8 * (align + len(secret)) / 6 // floor: the last char ends within the secret
		out = append(out, enc[first:last])
	}
	return out
}

// reversed is s backwards, as rev prints it: by characters.
func reversed(s string) string {
	if !utf8.ValidString(s) {
		b := []byte(s)
		slices.Reverse(b)
		return string(b)
	}
	r := []rune(s)
	slices.Reverse(r)
	return string(r)
}

// jsonForms is text plus its escaped forms inside a JSON string, with and
// without HTML escaping (encoding/json escapes <, > and & by default).
func jsonForms(text string) []string {
	forms := []string{text}
	if !strings.ContainsFunc(text, func(r rune) bool {
		return r < ' ' || strings.ContainsRune(`"\<>&`, r) || r == '\u2028' || r == '\u2029' || r == utf8.RuneError
	}) {
		return forms // encoding/json leaves it as it is
	}
	for _, html := range []bool{true, false} {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(html)
		_ = enc.Encode(text) // a string always encodes
		quoted := bytes.TrimSuffix(b.Bytes(), []byte("\n"))
		forms = append(forms, string(quoted[1:len(quoted)-1]))
	}
	return forms
}
