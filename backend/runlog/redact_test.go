package runlog

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"slices"
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

// TestRedactor_EncodedForms: a secret encoded as a tool could print it
// (base64 at each byte alignment in either alphabet, with or without
// padding, hex, reversed, URL-escaped) is redacted, with the whole encoded
// text holding it, even wrapped over lines as base64 and xxd -p wrap it,
// and as it looks inside a JSON string, where the line breaks are escaped.
func TestRedactor_EncodedForms(t *testing.T) {
	const key = "sk-test-0123456789abcdef+/?&=secret"
	environ := func(prefix string) []byte {
		return []byte("HOME=/root\x00" + prefix + "OPENAI_API_KEY=" + key + "\x00PATH=/usr/bin:/bin\x00LANG=C.UTF-8\x00")
	}
	rev := []rune(key)
	slices.Reverse(rev)
	type test struct{ name, encoded, sep string }
	tests := []test{
		{"reversed", string(rev), " "},
		{"query escaped", url.QueryEscape(key), " "},
		{"path escaped", url.PathEscape(key), " "},
		{"hex", hex.EncodeToString([]byte(key)), " "},
		{"upper-case hex", strings.ToUpper(hex.EncodeToString([]byte(key))), " "},
		{"hex of an environ, xxd -p", wrap(hex.EncodeToString(environ("")), 60, "\n"), "\n"},
		{"hex of an environ, CRLF", wrap(hex.EncodeToString(environ("")), 60, "\r\n"), "\r\n"},
		{"base64", base64.StdEncoding.EncodeToString([]byte(key)), " "},
		{"base64 without padding", base64.RawStdEncoding.EncodeToString([]byte(key)), " "},
		{"base64 url alphabet", base64.URLEncoding.EncodeToString([]byte(key)), " "},
	}
	for align, prefix := range []string{"", "X", "XY"} {
		env := environ(prefix)
		tests = append(tests,
			test{fmt.Sprintf("base64 of an environ, alignment %d", align), base64.StdEncoding.EncodeToString(env), " "},
			test{fmt.Sprintf("base64 wrapped at 76, alignment %d", align), wrap(base64.StdEncoding.EncodeToString(env), 76, "\n"), "\n"},
			test{fmt.Sprintf("base64 wrapped at 76 with CRLF, alignment %d", align), wrap(base64.StdEncoding.EncodeToString(env), 76, "\r\n"), "\r\n"},
			test{fmt.Sprintf("url base64 wrapped at 20, alignment %d", align), wrap(base64.RawURLEncoding.EncodeToString(env), 20, "\n"), "\n"},
		)
	}
	r := NewRedactor(key)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := "output:" + tt.sep + tt.encoded + tt.sep + "done"
			want := "output:" + tt.sep + Redacted + tt.sep + "done"
			if got := r.String(in); got != want {
				t.Errorf("String =\n%q\nwant\n%q", got, want)
			}
			if got := string(r.Redact([]byte(in))); got != want {
				t.Errorf("Redact =\n%q\nwant\n%q", got, want)
			}
			// As the emitter hands it over: inside a JSON string, with the
			// line breaks escaped.
			js, _ := json.Marshal(map[string]string{"result": in})
			wantJS, _ := json.Marshal(map[string]string{"result": want})
			if got := r.Redact(js); !bytes.Equal(got, wantJS) {
				t.Errorf("in JSON =\n%s\nwant\n%s", got, wantJS)
			}
		})
	}
}

// TestRedactor_WrappedAnywhere: an encoded secret is found whatever the
// width of the lines (16 columns or more) and wherever the breaks fall in
// it, and nothing of it is left.
func TestRedactor_WrappedAnywhere(t *testing.T) {
	const key = "sk-test-7f3a9c1e5b2d4f6a8c0e"
	r := NewRedactor(key)
	encodings := map[string]func([]byte) string{
		"base64":     base64.StdEncoding.EncodeToString,
		"url base64": base64.RawURLEncoding.EncodeToString,
		"hex":        hex.EncodeToString,
	}
	for name, encode := range encodings {
		for width := 16; width <= 80; width++ {
			for pad := range 7 {
				text := encode([]byte(strings.Repeat("x", pad) + "KEY=" + key + "\n"))
				for _, sep := range []string{"\n", "\r\n"} {
					in := "output:" + sep + wrap(text, width, sep) + sep + "done"
					got := r.String(in)
					if !strings.HasPrefix(got, "output:"+sep+Redacted) || strings.Count(got, Redacted) != 1 {
						t.Fatalf("%s at width %d after %d bytes: %q", name, width, pad, got)
					}
					if leak := strings.NewReplacer("\r", "", "\n", "").Replace(got); strings.Contains(leak, encode([]byte(key))[4:14]) {
						t.Fatalf("%s at width %d after %d bytes: part of the key is left: %q", name, width, pad, got)
					}
				}
			}
		}
	}
}

// TestRedactor_LeavesLookAlikesAlone: text that only looks encoded —
// digests, minified code, base64 blobs and encoded files without a secret,
// a JWT, a PEM block, Chinese — is returned as it is.
func TestRedactor_LeavesLookAlikesAlone(t *testing.T) {
	// Pa55w0rd: the shortest secret redacted, whose forms are the shortest.
	r := NewRedactor("sk-test-7f3a9c1e5b2d4f6a8c0e", "wecom-corp-secret-0123456789", "whsec-1a2b3c4d", "Pa55w0rd")
	blob := pseudoRandom(8 << 10)
	inputs := map[string]string{
		"sha256 digests": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  empty\n" +
			"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08  test\n",
		"git ids":      "commit 1d28608f0c2e4b7a9e3d5c6b8a7f1e2d3c4b5a69\nMerge: 97ce301 2604d57",
		"minified js":  `!function(e,t){"use strict";var n=e.document,r=Object.getPrototypeOf,i=[].slice;function o(e){return e&&e.nodeType}e.jQuery=e.$=t}(window,function(){return {ajaxSettings:{url:location.href}}});`,
		"base64 blob":  wrap(base64.StdEncoding.EncodeToString(blob), 76, "\n"),
		"hex blob":     wrap(hex.EncodeToString(blob), 60, "\n"),
		"url blob":     base64.RawURLEncoding.EncodeToString(blob),
		"encoded file": wrap(base64.StdEncoding.EncodeToString([]byte("HOME=/root\nOPENAI_API_KEY=sk-test-7f3a9c1e5b2d4f6a8c0f\nLANG=C.UTF-8\n")), 76, "\n"),
		"jwt":          "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
		"pem":          "-----BEGIN CERTIFICATE-----\n" + wrap(base64.StdEncoding.EncodeToString(blob[:600]), 64, "\n") + "\n-----END CERTIFICATE-----\n",
		"chinese":      "机器人收到消息后，先校验签名，再解密消息体。密钥长度为四十三个字符，请勿泄露。企业微信回调地址必须能从公网访问。",
		"numbers":      "order 1234567 shipped; phone 87654321; total 23456789",
		"lorem":        strings.Repeat("Lorem ipsum dolor sit amet, consectetur adipiscing elit\nsed do eiusmod tempor incididunt ut labore\n", 20),
		"identifiers":  "ObservationLimitExceededErrorHandlerFactory\nRedactorWrappedAnywhereTestCaseGenerator\n",
	}
	for name, in := range inputs {
		t.Run(name, func(t *testing.T) {
			b := []byte(in)
			if got := r.Redact(b); &got[0] != &b[0] || len(got) != len(b) {
				t.Fatalf("changed:\n%s", got)
			}
			js, _ := json.Marshal(map[string]string{"result": in})
			if got := r.Redact(js); &got[0] != &js[0] {
				t.Fatalf("changed in JSON:\n%s", got)
			}
		})
	}
}

// FuzzRedactor_KeepsJSON: whatever surrounds an encoded secret in a JSON
// string (escapes, quotes, line breaks, non-ASCII), what is left is JSON
// and holds none of it.
func FuzzRedactor_KeepsJSON(f *testing.F) {
	const key = "sk-test-7f3a9c1e5b2d4f6a8c0e"
	for _, seed := range []struct{ before, after string }{
		{"\t", "é"}, {"\"", "\\"}, {"\\", "\""}, {"\u00e9", "\u2028"}, {"\n", "\r\n"},
		{"<", "&"}, {"\x01", "\x7f"}, {"a\\n", "n\\"}, {"", ""}, {"KEY=", "=="},
	} {
		f.Add(seed.before, seed.after, uint8(0))
		f.Add(seed.before, seed.after, uint8(1))
		f.Add(seed.before, seed.after, uint8(2))
	}
	r := NewRedactor(key)
	f.Fuzz(func(t *testing.T, before, after string, form uint8) {
		var encoded string
		switch form % 3 {
		case 0:
			encoded = wrap(base64.StdEncoding.EncodeToString([]byte("X"+key)), 20, "\n")
		case 1:
			encoded = hex.EncodeToString([]byte(key))
		case 2:
			encoded = key
		}
		js, err := json.Marshal(map[string]string{"result": before + encoded + after})
		if err != nil {
			t.Skip()
		}
		got := r.Redact(js)
		var v map[string]string
		if err := json.Unmarshal(got, &v); err != nil {
			t.Fatalf("not JSON after redaction: %v\n%s", err, got)
		}
		if strings.Contains(strings.ReplaceAll(v["result"], "\n", ""), encoded[2:14]) {
			t.Fatalf("left: %q", v["result"])
		}
	})
}
